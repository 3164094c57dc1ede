//! PNG charts drawn by plotters with an embedded DejaVu font, so rendering needs no
//! system font library. Sized for slides: 1200 x 700.
//!
//! Every axis gets its ticks from this module ([`linear_ticks`], [`log_ticks`],
//! [`distance_ticks`]) rather than from plotters, so the labels are known before drawing:
//! [`label_area`] measures them with the font and sizes the space beside the axis, and
//! no label is cut at the image edge or drawn over the axis title, whatever the scale
//! (two levels or two hundred, counts of 1 or 2^64). Titles, statistics and legends sit
//! in a strip above the plot, never over the data.
//!
//! A new chart follows the same recipe: [`canvas`], [`header`] (and [`header_legend`]),
//! axes built with [`ticked`] from the tick functions, label areas from [`label_area`],
//! tick labels from [`count_label`] or [`number_label`]; `tests/charts.rs` checks the
//! pixels of the result.

use super::{bands, thousands};
use crate::analysis::Analysis;
use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;
use std::path::Path;

pub use super::bands::Area;
use std::sync::Once;

/// Width and height of every chart but the overview, pixels.
pub const SIZE: (u32, u32) = (1200, 700);
/// Width and height of `overview.png` (one small chart per family), pixels.
pub const OVERVIEW_SIZE: (u32, u32) = (1200, 860);
/// White space kept free around the whole image, pixels.
pub const MARGIN: u32 = 20;
/// Size of tick labels, pixels.
pub const LABEL_PX: u32 = 18;
/// Size of axis titles, pixels.
pub const DESC_PX: u32 = 20;

const FONT: &str = "sans-serif";
const TITLE_PX: u32 = 30;
const TEXT_PX: u32 = 20;
/// Height of the strip above the plot: title, then one line of statistics or legend.
const HEADER: u32 = 100;
/// Tick marks, pixels; plotters leaves twice this between the axis and its labels.
const TICK: i32 = 5;
/// Free space between a tick label and the axis title.
const GAP: u32 = 10;
const BAR: RGBColor = RGBColor(52, 101, 164);
const ACCENT: RGBColor = RGBColor(204, 0, 0);
/// Grid lines: light enough to read the data over them.
pub const GRID: RGBColor = RGBColor(222, 222, 222);
/// Colours of the series that share a small chart: far apart in hue and lightness.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled into the binary, so this cannot fail at run time.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Draws the white image of `size` at `path` as a PNG: `draw` draws inside its [`MARGIN`],
/// once per band of rows (see [`bands`](super::bands)), so it must draw the same each time.
pub fn canvas(path: &Path, size: (u32, u32), draw: impl Fn(&Area<'_>) -> Result<()>) -> Result<()> {
    register_font();
    bands::render(path, size, |root| draw(&root.margin(MARGIN, MARGIN, MARGIN, MARGIN)))
}

/// A count as people say it on a slide: `950`, `24k`, `1.2M`, `3.4G`.
pub fn short_count(x: f64) -> String {
    let (value, unit) = match x.abs() {
        v if v >= 1e9 => (x / 1e9, "G"),
        v if v >= 1e6 => (x / 1e6, "M"),
        v if v >= 1e3 => (x / 1e3, "k"),
        _ => (x, ""),
    };
    let text = if value.fract().abs() < 1e-9 || value.abs() >= 100.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    };
    format!("{}{unit}", text.trim_end_matches(".0"))
}

/// `x` in powers of ten with at most two significant digits: `1.2e18`, `5e-7`.
pub fn scientific(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let text = format!("{x:.1e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    format!("{}e{exponent}", mantissa.trim_end_matches(".0"))
}

/// A tick label on a count axis whose largest value is `axis_max`: [`short_count`] up to
/// the billions (`24k`, `3.4G`); on longer axes [`scientific`] from 1000 on (`1e3`,
/// `1.2e18`), one style per axis so the labels compare at a glance and stay at most six
/// characters wide.
pub fn count_label(x: f64, axis_max: f64) -> String {
    if axis_max < 1e12 || x.abs() < 1e3 {
        short_count(x)
    } else {
        scientific(x)
    }
}

/// A tick label for a ratio or any plain number: decimals between 0.001 and 9999
/// (`0.02`, `2.5`, `300`), [`scientific`] outside.
pub fn number_label(x: f64) -> String {
    if x == 0.0 || (1e-3..1e4).contains(&x.abs()) {
        let text = format!("{x:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        scientific(x)
    }
}

/// Round tick values from 0 to at most `max`, about `count` of them, spaced 1, 2 or 5
/// times a power of ten.
pub fn linear_ticks(max: f64, count: usize) -> Vec<f64> {
    if max <= 0.0 || !max.is_finite() {
        return vec![0.0];
    }
    let rough = max / count.max(1) as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    (0..)
        .map(|i| i as f64 * step)
        .take_while(|t| *t <= max * (1.0 + 1e-9))
        .collect()
}

/// Tick values for a logarithmic axis over `lo..hi` (both positive): the powers of ten,
/// every second or third one when there are many (at most ten), with 2 and 5 times them when the
/// range spans three powers of ten or fewer.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let first = lo.log10().ceil() as i32;
    let last = hi.log10().floor() as i32;
    let decades = (last - first + 1).max(0) as usize;
    if decades <= 3 {
        let mut ticks: Vec<f64> = (first - 1..=last)
            .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
            .filter(|t| (lo..=hi).contains(t))
            .collect();
        ticks.dedup();
        return ticks;
    }
    // Every `every`-th power, counted from 10^0 so that 1 is among them when in range.
    let every = decades.div_ceil(10).max(1) as i32;
    (first..=last)
        .filter(|e| e.rem_euclid(every) == 0)
        .map(|e| 10f64.powi(e))
        .collect()
}

/// Tick values for a distance axis from 0 to `max`: every distance up to 20 levels,
/// then every 2nd, 5th, 10th... so that at most about 20 labels show.
pub fn distance_ticks(max: usize) -> Vec<f64> {
    let step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|s| max / s < 20)
        .unwrap_or(max.div_ceil(20).max(1));
    (0..=max).step_by(step).map(|d| d as f64).collect()
}

/// A plotters axis whose ticks are exactly `ticks`, mapped to pixels by `inner` (linear
/// or logarithmic): the chart knows its labels before drawing, so it can measure them.
pub struct Ticked<R> {
    inner: R,
    ticks: Vec<f64>,
}

/// An axis over `range` (e.g. `0.0..9.0`, or `(1.0..1e9).log_scale()`) with `ticks` only.
pub fn ticked<A: AsRangedCoord<Value = f64>>(range: A, ticks: Vec<f64>) -> Ticked<A::CoordDescType> {
    Ticked {
        inner: range.into(),
        ticks,
    }
}

impl<R: Ranged<ValueType = f64>> Ranged for Ticked<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // No light grid lines: the labelled ones are enough.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// Width and height in pixels of `text` in the chart font at `size` pixels.
pub fn text_size(text: &str, size: u32) -> (u32, u32) {
    register_font();
    (FONT, size).into_font().box_size(text).unwrap_or((0, 0))
}

/// Pixels the label area beside a vertical axis needs for `labels` and a rotated axis
/// title: the widest label, a gap, the title's height, and the space plotters leaves
/// between the axis and its labels. Also right for a horizontal axis when `labels` are
/// measured by height: pass `horizontal`.
pub fn label_area(labels: &[String], horizontal: bool) -> u32 {
    let extent = labels
        .iter()
        .map(|l| {
            let (w, h) = text_size(l, LABEL_PX);
            if horizontal { h } else { w }
        })
        .max()
        .unwrap_or(0);
    let title = text_size("Distance (gy)", DESC_PX).1;
    2 * TICK as u32 + extent + GAP + title + 4
}

/// Below the [`header`] on `root` titled `a`'s title and `what`, with the [`headline`]
/// statistics, the area left for the plot.
fn headed<'a>(root: &Area<'a>, a: &Analysis, what: &str) -> Result<Area<'a>> {
    header(root, &format!("{}: {what}", a.title), Some(&headline(a)))
}

/// The statistics line under a per-analysis chart's title.
fn headline(a: &Analysis) -> String {
    let classes = match a.symmetric() {
        true => format!(" ({} up to symmetry)", thousands(a.reachable_classes())),
        false => String::new(),
    };
    format!(
        "{} reachable{classes}, max distance {} ({} antipode{}), mean {:.2}",
        thousands(a.reachable()),
        a.max_distance(),
        thousands(a.antipodes()),
        if a.antipodes() == 1 { "" } else { "s" },
        a.mean_distance()
    )
}

/// Draws the title and, below it, one line of statistics (or nothing, to leave room for
/// [`header_legend`]); returns the area left below for the chart.
pub fn header<'a>(root: &Area<'a>, title: &str, line: Option<&str>) -> Result<Area<'a>> {
    let (top, body) = root.split_vertically(HEADER);
    let centre = top.dim_in_pixel().0 as i32 / 2;
    let style = |size: u32| {
        (FONT, size)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top))
    };
    top.draw(&Text::new(
        title.to_string(),
        (centre, 8),
        (FONT, TITLE_PX, FontStyle::Bold)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    if let Some(line) = line {
        top.draw(&Text::new(line.to_string(), (centre, 60), style(TEXT_PX)))?;
    }
    Ok(body)
}

/// Draws a legend on one line, centred in the [`header`] strip below the title, where it
/// can never cover the data.
pub fn header_legend(root: &Area<'_>, entries: &[(&str, RGBColor)]) -> Result<()> {
    let solid: Vec<(&str, RGBColor, bool)> = entries.iter().map(|&(t, c)| (t, c, false)).collect();
    legend_with_strokes(root, &solid)
}

/// [`header_legend`] whose entries say whether their line is dashed, as drawn.
fn legend_with_strokes(root: &Area<'_>, entries: &[(&str, RGBColor, bool)]) -> Result<()> {
    const SAMPLE: i32 = 36;
    const SPACE: i32 = 40;
    let widths: Vec<i32> = entries
        .iter()
        .map(|(text, _, _)| SAMPLE + 8 + text_size(text, TEXT_PX).0 as i32)
        .collect();
    let total: i32 = widths.iter().sum::<i32>() + SPACE * (entries.len() as i32 - 1);
    let mut x = (root.dim_in_pixel().0 as i32 - total) / 2;
    let y = 72;
    for ((text, color, dashed), width) in entries.iter().zip(widths) {
        match dashed {
            false => root.draw(&PathElement::new([(x, y), (x + SAMPLE, y)], color.stroke_width(3)))?,
            true => {
                for x0 in (x..x + SAMPLE).step_by(16) {
                    let x1 = (x0 + 10).min(x + SAMPLE);
                    root.draw(&PathElement::new([(x0, y), (x1, y)], color.stroke_width(2)))?;
                }
            }
        }
        root.draw(&Text::new(
            text.to_string(),
            (x + SAMPLE + 8, y),
            (FONT, TEXT_PX)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        x += width + SPACE;
    }
    Ok(())
}

/// The horizontal axis of the per-analysis charts: half a level of room on each side,
/// so the first and last points and bars are whole.
/// Returns the axis and its tick labels, to be measured with [`label_area`].
pub fn distance_axis(a: &Analysis) -> (Ticked<RangedCoordf64>, Vec<String>) {
    let ticks = distance_ticks(a.max_distance());
    let labels = ticks.iter().map(|t| format!("{t:.0}")).collect();
    let range = -0.5..a.max_distance() as f64 + 0.5;
    (ticked(range, ticks), labels)
}

/// A chart on `body` with the [`distance_axis`] across and `y` up, its mesh drawn: grid
/// lines at the ticks (across as well when `x_grid`), `y` labelled by `y_label` and titled
/// `y_desc`, the label areas sized to fit.
fn distance_chart<'a, 'b, Y: Ranged<ValueType = f64>>(
    body: &'a Area<'b>,
    a: &Analysis,
    y: Ticked<Y>,
    y_desc: &str,
    y_label: &dyn Fn(f64) -> String,
    x_grid: bool,
) -> Result<DistanceChart<'a, 'b, Y>> {
    let y_labels: Vec<String> = y.ticks.iter().map(|&t| y_label(t)).collect();
    let (x_axis, x_labels) = distance_axis(a);
    let mut chart = ChartBuilder::on(body)
        .x_label_area_size(label_area(&x_labels, true))
        .y_label_area_size(label_area(&y_labels, false))
        .build_cartesian_2d(x_axis, y)?;
    let mut mesh = chart.configure_mesh();
    if !x_grid {
        mesh.disable_x_mesh();
    }
    mesh.bold_line_style(GRID)
        .set_all_tick_mark_size(TICK)
        .x_desc(format!("distance to the goal ({})", a.metric))
        .y_desc(y_desc)
        .y_label_formatter(&|y| y_label(*y))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .label_style((FONT, LABEL_PX))
        .axis_desc_style((FONT, DESC_PX))
        .draw()?;
    Ok(chart)
}

/// What [`distance_chart`] returns: distances across, `Y` up.
type DistanceChart<'a, 'b, Y> = ChartContext<'a, bands::Band<'b>, Cartesian2d<Ticked<RangedCoordf64>, Ticked<Y>>>;

/// `distances.png`: configurations at each distance as bars, the antipodes marked.
pub fn distances(a: &Analysis, path: &Path) -> Result<()> {
    canvas(path, SIZE, |root| {
        let body = headed(root, a, &format!("{}s by distance to the goal", a.noun()))?;
        let max_d = a.max_distance() as f64;
        let peak = a.levels.iter().copied().max().unwrap_or(1) as f64;
        let top = peak * 1.18;
        // Whole configurations only, even when the largest level holds one.
        let y_ticks: Vec<f64> = linear_ticks(top, 6).into_iter().filter(|t| t.fract() == 0.0).collect();
        let mut chart = distance_chart(
            &body,
            a,
            ticked(0f64..top, y_ticks),
            &format!("{}s", a.noun()),
            &|y| count_label(y, peak),
            false,
        )?;
        // Bars a little narrower than a level when they are wide enough to show a gap.
        let plot_width = chart.plotting_area().dim_in_pixel().0 as f64;
        let half = if plot_width / (max_d + 1.0) > 8.0 { 0.42 } else { 0.5 };
        let bar = |d: f64, n: f64, color: RGBColor| Rectangle::new([(d - half, 0.0), (d + half, n)], color.filled());
        chart.draw_series(a.levels.iter().enumerate().map(|(d, &n)| bar(d as f64, n as f64, BAR)))?;
        // Mark the farthest level: its bar may be too small to see, so a red marker sits
        // above it and a label near the top points down to it.
        let last = a.antipodes() as f64;
        chart.draw_series([bar(max_d, last, ACCENT)])?;
        chart.draw_series([PathElement::new(
            vec![(max_d, last + top * 0.03), (max_d, top * 0.90)],
            ACCENT.stroke_width(1),
        )])?;
        chart.draw_series([TriangleMarker::new((max_d, last + top * 0.03), 7, ACCENT.filled())])?;
        // The label reads towards the middle of the plot: leftwards from a bar on the right.
        let anchor = if max_d >= 1.0 { HPos::Right } else { HPos::Left };
        chart.draw_series([Text::new(
            format!(
                " max {}: {} antipode{} ",
                a.max_distance(),
                thousands(a.antipodes()),
                if a.antipodes() == 1 { "" } else { "s" }
            ),
            (max_d, top * 0.94),
            (FONT, TEXT_PX)
                .into_font()
                .color(&ACCENT)
                .pos(Pos::new(anchor, VPos::Center)),
        )])?;
        Ok(())
    })
}

/// `distances-log.png`: the same counts on a logarithmic axis, so the first and last
/// levels (a handful of states) show beside the millions in the middle. The axis spans
/// the data with a factor of two to spare at each end. Counted up to symmetry, the
/// classes are a second line, and a legend in place of the statistics says which is which.
pub fn distances_log(a: &Analysis, path: &Path) -> Result<()> {
    canvas(path, SIZE, |root| {
        let what = format!("{}s by distance (log scale)", a.noun());
        let mut lines = vec![(format!("{}s", a.noun()), BAR, &a.levels)];
        let body = if a.symmetric() {
            lines.push((
                format!("classes up to its {} symmetries", a.symmetry.order),
                ACCENT,
                &a.level_classes,
            ));
            let legend: Vec<(&str, RGBColor, bool)> = lines
                .iter()
                .enumerate()
                .map(|(i, (t, c, _))| (t.as_str(), *c, i > 0))
                .collect();
            let body = header(root, &format!("{}: {what}", a.title), None)?;
            legend_with_strokes(root, &legend)?;
            body
        } else {
            headed(root, a, &what)?
        };
        let counts = || lines.iter().flat_map(|(_, _, l)| l.iter().map(|&n| n.max(1) as f64));
        let peak = counts().fold(1.0, f64::max);
        let least = counts().fold(peak, f64::min);
        let (lo, hi) = (least / 2.0, peak * 2.0);
        let y_ticks: Vec<f64> = log_ticks(lo, hi).into_iter().filter(|&t| t >= 1.0).collect();
        let mut chart = distance_chart(
            &body,
            a,
            ticked((lo..hi).log_scale(), y_ticks),
            &match a.symmetric() {
                true => format!("{}s and classes (log scale)", a.noun()),
                false => format!("{}s (log scale)", a.noun()),
            },
            &|y| count_label(y, hi),
            true,
        )?;
        // The classes are dashed, with smaller dots, over the states: where the two counts
        // are equal (every class a single state) both lines still show.
        let radius = if a.levels.len() > 60 { 3 } else { 5 };
        for (i, (_, color, levels)) in lines.iter().enumerate() {
            let points: Vec<(f64, f64)> = levels.iter().enumerate().map(|(d, &n)| (d as f64, n as f64)).collect();
            if i == 0 {
                chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(3)))?;
            } else {
                chart.draw_series(DashedLineSeries::new(points.clone(), 10, 6, color.stroke_width(2)))?;
            }
            let r = if i == 0 { radius } else { radius - 2 };
            chart.draw_series(points.iter().map(|&p| Circle::new(p, r, color.filled())))?;
        }
        Ok(())
    })
}

/// `growth.png`: how the search grew: the share of all reachable configurations found
/// within each distance, and the ratio between successive levels (the effective
/// branching factor) on a logarithmic right-hand axis, where doubling and halving are
/// the same distance from 1 and ratios of 10^17 still fit.
pub fn growth(a: &Analysis, path: &Path) -> Result<()> {
    canvas(path, SIZE, |root| {
        let body = header(root, &format!("{}: how the search grew", a.title), None)?;
        let share_label = "cumulative share reached (left axis)";
        let ratio_label = "level size / previous level size (right axis)";
        header_legend(root, &[(share_label, BAR), (ratio_label, ACCENT)])?;
        let share = cumulative_share(a);
        let ratios = level_ratios(a);
        let (r_lo, r_hi) = ratio_range(&ratios);
        let r_ticks = log_ticks(r_lo, r_hi);
        let r_labels: Vec<String> = r_ticks.iter().copied().map(number_label).collect();
        let y_ticks = linear_ticks(100.0, 10);
        let y_labels: Vec<String> = y_ticks.iter().map(|y| format!("{y:.0}%")).collect();
        let (x_axis, x_labels) = distance_axis(a);
        let (x_axis2, _) = distance_axis(a);
        // plotters centres the right axis title on the area's outer edge: half of it needs
        // room beyond the label area.
        let mut chart = ChartBuilder::on(&body)
            .margin_right(text_size("Ay", DESC_PX).1)
            .x_label_area_size(label_area(&x_labels, true))
            .y_label_area_size(label_area(&y_labels, false))
            .right_y_label_area_size(label_area(&r_labels, false))
            .build_cartesian_2d(x_axis, ticked(0f64..100.0, y_ticks))?
            .set_secondary_coord(x_axis2, ticked((r_lo..r_hi).log_scale(), r_ticks));
        chart
            .configure_mesh()
            .bold_line_style(GRID)
            .set_all_tick_mark_size(TICK)
            .x_desc(format!("distance to the goal ({})", a.metric))
            .y_desc("reached within this distance (% of reachable)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}%"))
            .label_style((FONT, LABEL_PX))
            .axis_desc_style((FONT, DESC_PX))
            .draw()?;
        chart
            .configure_secondary_axes()
            .set_all_tick_mark_size(TICK)
            .y_desc("level size / previous level size (log scale)")
            .y_label_formatter(&|y| number_label(*y))
            .label_style((FONT, LABEL_PX))
            .axis_desc_style((FONT, DESC_PX))
            .draw()?;
        let radius = if share.len() > 60 { 2 } else { 4 };
        chart.draw_secondary_series(DashedLineSeries::new(
            [(-0.5, 1.0), (a.max_distance() as f64 + 0.5, 1.0)],
            6,
            6,
            ACCENT.mix(0.5).stroke_width(1),
        ))?;
        let pixels: Vec<(i32, i32)> = share.iter().map(|p| chart.backend_coord(p)).collect();
        brush(&chart.plotting_area().strip_coord_spec(), &pixels, BAR)?;
        chart.draw_series(share.iter().map(|&p| Circle::new(p, radius, BAR.filled())))?;
        chart.draw_secondary_series(LineSeries::new(ratios.clone(), ACCENT.stroke_width(2)))?;
        chart.draw_secondary_series(
            ratios
                .iter()
                .map(|&p| TriangleMarker::new(p, radius + 1, ACCENT.filled())),
        )?;
        Ok(())
    })
}

/// Draws a line through `pixels` (the backend's coordinates) 3 pixels wide, traced by a
/// 3 x 3 brush of one-pixel lines. plotters draws a wide line as a polygon per segment,
/// whose rounded corners can put a nearly flat segment a pixel lower than its neighbours:
/// a cumulative share between 99.96% and 100% would seem to fall. One-pixel lines between
/// monotone points are monotone, and so is the union of their shifts.
fn brush(area: &Area<'_>, pixels: &[(i32, i32)], color: RGBColor) -> Result<()> {
    let (left, top) = area.get_base_pixel();
    for dx in -1..=1 {
        for dy in -1..=1 {
            let shifted: Vec<(i32, i32)> = pixels.iter().map(|&(x, y)| (x - left + dx, y - top + dy)).collect();
            area.draw(&PathElement::new(shifted, color.stroke_width(1)))?;
        }
    }
    Ok(())
}

/// `(distance, percentage)`: the share of all reachable configurations found within each
/// distance.
fn cumulative_share(a: &Analysis) -> Vec<(f64, f64)> {
    let total = a.reachable() as f64;
    let mut cumulative = 0.0;
    a.levels
        .iter()
        .enumerate()
        .map(|(d, &n)| {
            cumulative += n as f64;
            (d as f64, 100.0 * cumulative / total)
        })
        .collect()
}

/// `(distance, ratio)`: each level's size over the previous level's (the effective
/// branching factor), where both are non-empty.
fn level_ratios(a: &Analysis) -> Vec<(f64, f64)> {
    a.levels
        .windows(2)
        .enumerate()
        .map(|(d, w)| (d as f64 + 1.0, w[1] as f64 / w[0] as f64))
        // With weighted moves some costs have no configurations: no ratio there.
        .filter(|(_, ratio)| ratio.is_finite() && *ratio > 0.0)
        .collect()
}

/// The span of the logarithmic ratio axis: all of `ratios` and 1 (a level as large as the
/// one before always shows), with a factor of 1.6 to spare at each end.
fn ratio_range(ratios: &[(f64, f64)]) -> (f64, f64) {
    let (lo, hi) = ratios
        .iter()
        .fold((1.0f64, 1.0f64), |(lo, hi), r| (lo.min(r.1), hi.max(r.1)));
    (lo / 1.6, hi * 1.6)
}

/// The share of reachable configurations within each fraction of the maximum distance.
fn normalised(a: &Analysis) -> Vec<(f64, f64)> {
    let max = a.max_distance().max(1) as f64;
    cumulative_share(a)
        .into_iter()
        .map(|(d, share)| (d / max, share))
        .collect()
}

/// `overview.png`: every analysis's distances normalised so that boards of different
/// sizes compare: the share of reachable configurations within each fraction of the
/// maximum distance (a cumulative curve, whatever the number of levels). One small chart
/// per family, each size in its own colour, the other families in grey behind for
/// comparison.
pub fn overview(analyses: &[Analysis], path: &Path) -> Result<()> {
    canvas(path, OVERVIEW_SIZE, |root| {
        let body = header(
            root,
            "How fast each puzzle's states are reached",
            Some("share of the states within each fraction of the puzzle's maximum distance"),
        )?;
        let mut families: Vec<&str> = Vec::new();
        for a in analyses {
            if !families.contains(&a.family.as_str()) {
                families.push(&a.family);
            }
        }
        let columns = families.len().clamp(1, 3);
        let rows = families.len().div_ceil(columns).max(1);
        let body = overview_titles(&body)?;
        let most = families
            .iter()
            .map(|f| analyses.iter().filter(|a| a.family == *f).count())
            .max()
            .unwrap_or(1) as u32;
        let legend_height = most * 24 + 8;
        for (panel, family) in body.split_evenly((rows, columns)).iter().zip(&families) {
            overview_panel(panel, family, analyses, legend_height)?;
        }
        Ok(())
    })
}

/// Draws the overview's axis titles, shared by all its small charts, along the bottom and
/// left of `body`; returns the area left for the charts.
fn overview_titles<'a>(body: &Area<'a>) -> Result<Area<'a>> {
    let (body, x_title) = body.split_vertically(body.dim_in_pixel().1 - 34);
    x_title.draw(&Text::new(
        "distance / maximum distance of that puzzle",
        (x_title.dim_in_pixel().0 as i32 / 2, 34),
        (FONT, DESC_PX)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Bottom)),
    ))?;
    let (y_title, body) = body.split_horizontally(34);
    y_title.draw(&Text::new(
        "states within that distance",
        (0, y_title.dim_in_pixel().1 as i32 / 2),
        (FONT, DESC_PX)
            .into_font()
            .transform(FontTransform::Rotate270)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))?;
    Ok(body)
}

/// A panel's title: the family as on the command line, but for files, named by what they
/// hold (every rules file is the family `rules`).
fn panel_title(family: &str) -> &str {
    match family {
        "rules" => "coin puzzles (rules files)",
        "permutation" => "definition files",
        other => other,
    }
}

/// One small chart of the overview: `family`'s analyses in colour over the others in grey,
/// and below it a legend `legend_height` pixels high.
fn overview_panel(panel: &Area<'_>, family: &str, analyses: &[Analysis], legend_height: u32) -> Result<()> {
    let y_labels: Vec<String> = ["0%", "50%", "100%"].map(String::from).to_vec();
    let panel = panel.margin(4, 4, 10, 10);
    let (plot, legend) = panel.split_vertically(panel.dim_in_pixel().1 - legend_height);
    let mut chart = ChartBuilder::on(&plot)
        .caption(panel_title(family), (FONT, TEXT_PX, FontStyle::Bold))
        .x_label_area_size(2 * TICK as u32 + text_size("0", LABEL_PX).1 + 6)
        .y_label_area_size(2 * TICK as u32 + y_labels.iter().map(|l| text_size(l, LABEL_PX).0).max().unwrap_or(0) + 4)
        .build_cartesian_2d(
            ticked(0f64..1.0, vec![0.0, 0.5, 1.0]),
            ticked(0f64..100.0, vec![0.0, 50.0, 100.0]),
        )?;
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .set_all_tick_mark_size(TICK)
        .x_label_formatter(&|x| format!("{x}"))
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .label_style((FONT, LABEL_PX))
        .draw()?;
    for other in analyses.iter().filter(|a| a.family != family) {
        chart.draw_series(LineSeries::new(
            normalised(other),
            RGBColor(200, 200, 200).stroke_width(1),
        ))?;
    }
    let members: Vec<&Analysis> = analyses.iter().filter(|a| a.family == family).collect();
    for (i, a) in members.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let pixels: Vec<(i32, i32)> = normalised(a).iter().map(|p| chart.backend_coord(p)).collect();
        brush(&chart.plotting_area().strip_coord_spec(), &pixels, color)?;
        let y = 12 + 24 * i as i32;
        let x = 2 * TICK + text_size("100%", LABEL_PX).0 as i32 + 10;
        legend.draw(&PathElement::new([(x, y), (x + 30, y)], color.stroke_width(3)))?;
        legend.draw(&Text::new(
            format!("{} (max {})", a.id, a.max_distance()),
            (x + 38, y),
            (FONT, LABEL_PX)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
