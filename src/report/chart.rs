//! PNG charts drawn by plotters with an embedded DejaVu font, so rendering needs no
//! system font library. Sized for slides: 1200 x 700.

use super::thousands;
use crate::analysis::Analysis;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;
use std::sync::Once;

/// Width and height of every chart, pixels.
pub const SIZE: (u32, u32) = (1200, 700);

const FONT: &str = "sans-serif";
const BAR: RGBColor = RGBColor(52, 101, 164);
const ACCENT: RGBColor = RGBColor(204, 0, 0);
const PALETTE: [RGBColor; 8] = [
    RGBColor(52, 101, 164),
    RGBColor(204, 0, 0),
    RGBColor(78, 154, 6),
    RGBColor(245, 121, 0),
    RGBColor(117, 80, 123),
    RGBColor(193, 125, 17),
    RGBColor(6, 152, 154),
    RGBColor(46, 52, 54),
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

fn canvas(path: &Path) -> DrawingArea<BitMapBackend<'_>, Shift> {
    register_font();
    BitMapBackend::new(path, SIZE).into_drawing_area()
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

fn headline(a: &Analysis) -> String {
    format!(
        "{} reachable, max distance {} ({} antipode{}), mean {:.2}",
        thousands(a.reachable()),
        a.max_distance(),
        thousands(a.antipodes()),
        if a.antipodes() == 1 { "" } else { "s" },
        a.mean_distance()
    )
}

/// `distances.png`: configurations at each distance as bars, the antipodes marked.
pub fn distances(a: &Analysis, path: &Path) -> Result<()> {
    let root = canvas(path);
    root.fill(&WHITE)?;
    let max_d = a.max_distance() as u32;
    let top = a.levels.iter().copied().max().unwrap_or(1) as f64 * 1.15;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: configurations by distance to the goal", a.title),
            (FONT, 30).into_font().style(FontStyle::Bold),
        )
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d((0u32..max_d + 1).into_segmented(), 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .x_desc(format!("distance to the goal ({})", a.metric))
        .y_desc("configurations")
        .x_labels((max_d as usize + 1).min(40))
        .y_label_formatter(&|y| short_count(*y))
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(v) | SegmentValue::Exact(v) => v.to_string(),
            SegmentValue::Last => String::new(),
        })
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 22))
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(BAR.filled())
            .margin(if max_d > 60 { 0 } else { 2 })
            .data(a.levels.iter().enumerate().map(|(d, &n)| (d as u32, n as f64))),
    )?;
    // Mark the farthest level: its bar may be too small to see, so a red marker sits
    // above it and a label at the top right points down to it.
    let last = a.antipodes() as f64;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(ACCENT.filled())
            .margin(if max_d > 60 { 0 } else { 2 })
            .data([(max_d, last)]),
    )?;
    let at = |y: f64| (SegmentValue::CenterOf(max_d), y);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![at(last + top * 0.03), at(top * 0.90)],
        ACCENT.stroke_width(1),
    )))?;
    chart.draw_series(std::iter::once(TriangleMarker::new(
        at(last + top * 0.03),
        7,
        ACCENT.filled(),
    )))?;
    chart.draw_series(std::iter::once(Text::new(
        format!(
            "max {max_d}: {} antipode{} ",
            thousands(a.antipodes()),
            if a.antipodes() == 1 { "" } else { "s" }
        ),
        at(top * 0.93),
        (FONT, 20)
            .into_font()
            .color(&ACCENT)
            .pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Right,
                plotters::style::text_anchor::VPos::Center,
            )),
    )))?;
    root.draw(&Text::new(headline(a), (130, 80), (FONT, 20).into_font().color(&BLACK)))?;
    root.present()?;
    Ok(())
}

/// `distances-log.png`: the same counts on a logarithmic axis, so the first and last
/// levels (a handful of states) show beside the millions in the middle.
pub fn distances_log(a: &Analysis, path: &Path) -> Result<()> {
    let root = canvas(path);
    root.fill(&WHITE)?;
    let max_d = a.max_distance() as u32;
    // Two decades of headroom keep the peak clear of the headline.
    let top = a.levels.iter().copied().max().unwrap_or(1) as f64 * 100.0;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: configurations by distance (log scale)", a.title),
            (FONT, 30).into_font().style(FontStyle::Bold),
        )
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d(0u32..max_d.max(1), (0.7f64..top).log_scale())?;
    chart
        .configure_mesh()
        .x_desc(format!("distance to the goal ({})", a.metric))
        .y_desc("configurations (log scale)")
        .x_labels((max_d as usize + 1).min(40))
        .y_label_formatter(&|y| short_count(*y))
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 22))
        .draw()?;
    let points: Vec<(u32, f64)> = a
        .levels
        .iter()
        .enumerate()
        .map(|(d, &n)| (d as u32, n as f64))
        .collect();
    chart.draw_series(LineSeries::new(points.clone(), BAR.stroke_width(3)))?;
    chart.draw_series(points.iter().map(|&p| Circle::new(p, 5, BAR.filled())))?;
    root.draw(&Text::new(headline(a), (130, 80), (FONT, 20).into_font().color(&BLACK)))?;
    root.present()?;
    Ok(())
}

/// `growth.png`: how the search grew: the share of all reachable configurations found
/// within each distance, and the ratio between successive levels (the effective
/// branching factor) on the right-hand axis.
pub fn growth(a: &Analysis, path: &Path) -> Result<()> {
    let root = canvas(path);
    root.fill(&WHITE)?;
    let max_d = a.max_distance() as u32;
    let total = a.reachable() as f64;
    let mut cumulative = 0.0;
    let share: Vec<(u32, f64)> = a
        .levels
        .iter()
        .enumerate()
        .map(|(d, &n)| {
            cumulative += n as f64;
            (d as u32, 100.0 * cumulative / total)
        })
        .collect();
    let ratios: Vec<(u32, f64)> = a
        .levels
        .windows(2)
        .enumerate()
        .map(|(d, w)| (d as u32 + 1, w[1] as f64 / w[0] as f64))
        // With weighted moves some costs have no configurations: no ratio there.
        .filter(|(_, ratio)| ratio.is_finite())
        .collect();
    let ratio_top = ratios.iter().map(|r| r.1).fold(1.0f64, f64::max).ceil().max(2.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: how the search grew", a.title),
            (FONT, 30).into_font().style(FontStyle::Bold),
        )
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .right_y_label_area_size(90)
        .build_cartesian_2d(0u32..max_d.max(1), 0f64..100.0)?
        .set_secondary_coord(0u32..max_d.max(1), 0f64..ratio_top);
    chart
        .configure_mesh()
        .x_desc(format!("distance to the goal ({})", a.metric))
        .y_desc("reached within this distance (% of reachable)")
        .x_labels((max_d as usize + 1).min(40))
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 20))
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc("level size / previous level size")
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 20))
        .draw()?;
    chart
        .draw_series(LineSeries::new(share.clone(), BAR.stroke_width(3)))?
        .label("cumulative share reached")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 30, y)], BAR.stroke_width(3)));
    chart.draw_series(share.iter().map(|&p| Circle::new(p, 4, BAR.filled())))?;
    chart
        .draw_secondary_series(LineSeries::new(ratios.clone(), ACCENT.stroke_width(2)))?
        .label("ratio to the previous level (right axis)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 30, y)], ACCENT.stroke_width(2)));
    chart.draw_secondary_series(ratios.iter().map(|&p| TriangleMarker::new(p, 5, ACCENT.filled())))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::MiddleLeft)
        .label_font((FONT, 18))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// `overview.png`: every analysis's distances on one chart, normalised so that boards
/// of different sizes compare: the share of reachable configurations within each
/// fraction of the maximum distance (a cumulative curve, whatever the number of levels).
/// Each family has one colour; sizes within a family differ by dash pattern.
pub fn overview(analyses: &[Analysis], path: &Path) -> Result<()> {
    let root = canvas(path);
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "How fast each puzzle's states are reached",
            (FONT, 30).into_font().style(FontStyle::Bold),
        )
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(90)
        .build_cartesian_2d(0f64..1.0, 0f64..100.0)?;
    chart
        .configure_mesh()
        .x_desc("distance / maximum distance of that puzzle")
        .y_desc("reachable configurations within that distance (%)")
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .x_label_formatter(&|x| format!("{x:.1}"))
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 22))
        .draw()?;
    let mut families: Vec<&str> = Vec::new();
    let mut seen_in_family: Vec<usize> = Vec::new();
    for a in analyses {
        let family = families.iter().position(|f| *f == a.family).unwrap_or_else(|| {
            families.push(&a.family);
            seen_in_family.push(0);
            families.len() - 1
        });
        let variant = seen_in_family[family];
        seen_in_family[family] += 1;
        let color = PALETTE[family % PALETTE.len()];
        let max = a.max_distance().max(1) as f64;
        let total = a.reachable() as f64;
        let mut cumulative = 0.0;
        let points: Vec<(f64, f64)> = a
            .levels
            .iter()
            .enumerate()
            .map(|(d, &n)| {
                cumulative += n as f64;
                (d as f64 / max, 100.0 * cumulative / total)
            })
            .collect();
        let style = color.stroke_width(3);
        let label = format!("{} (max {})", a.id, a.max_distance());
        // Solid for a family's first size, then ever shorter dashes.
        let (dash, gap): (i32, i32) = [(0, 0), (14, 6), (6, 6), (2, 5)][variant.min(3)];
        let legend = move |(x, y): (i32, i32)| {
            EmptyElement::at((x, y)) + PathElement::new([(0, 0), (if dash == 0 { 30 } else { dash }, 0)], style)
        };
        if dash == 0 {
            chart
                .draw_series(LineSeries::new(points, style))?
                .label(label)
                .legend(legend);
        } else {
            chart
                .draw_series(DashedLineSeries::new(points, dash, gap, style))?
                .label(label)
                .legend(legend);
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .label_font((FONT, 17))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
