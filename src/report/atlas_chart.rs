//! The heuristic atlas's charts, in the style and size of [`super::chart`]:
//! `heuristics.png` (each estimate against the true distance) and `astar.png` (A*'s
//! search effort by distance, log scale).

use super::bands::Band;
use super::chart::{self, SIZE, short_count};
use crate::analysis::Analysis;
use crate::atlas::Atlas;
use crate::atlas::astar::BUDGET;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;

const FONT: &str = "sans-serif";
/// One colour per estimate, in the order of [`crate::heuristics::Kind::ALL`].
const COLORS: [RGBColor; 3] = [RGBColor(204, 0, 0), RGBColor(52, 101, 164), RGBColor(78, 154, 6)];

/// `heuristics.png`: true distance across, estimate up; per estimate its mean at each
/// distance as a line and its least and largest as thin dashed lines; the diagonal is a
/// perfect estimate, and admissibility keeps every line on or below it.
pub fn heuristics(a: &Analysis, atlas: &Atlas, path: &Path) -> Result<()> {
    chart::canvas(path, SIZE, |root| {
        let max_d = a.max_distance().max(1) as f64;
        let mut chart = captioned(root, format!("{}: estimates against the true distance", a.title), 80)
            .build_cartesian_2d(0f64..max_d, 0f64..max_d)?;
        let labels = (a.max_distance() + 1).min(30);
        draw_mesh(&mut chart, labels, "estimate (moves)", Some(labels), &|y| {
            format!("{y:.0}")
        })?;
        let diagonal = BLACK.stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new([(0.0, 0.0), (max_d, max_d)], 10, 6, diagonal))?
            .label("perfect estimate (estimate = distance)")
            .legend(legend_line(diagonal));
        for (joint, color) in atlas.joints.iter().zip(COLORS) {
            let ranges: Vec<(f64, u32, u32)> = (0..joint.states.len())
                .filter_map(|d| joint.range(d).map(|(lo, hi)| (d as f64, lo, hi)))
                .collect();
            // The least and largest estimates as thin dashed lines, not filled bands: three
            // overlapping bands mix into one colour no reader can take apart.
            let thin = color.stroke_width(1);
            let least = ranges.iter().map(|&(d, lo, _)| (d, f64::from(lo)));
            let largest = ranges.iter().map(|&(d, _, hi)| (d, f64::from(hi)));
            chart.draw_series(DashedLineSeries::new(least, 6, 4, thin))?;
            chart.draw_series(DashedLineSeries::new(largest, 6, 4, thin))?;
            let means: Vec<(f64, f64)> = (0..joint.states.len())
                .filter_map(|d| joint.mean_at(d).map(|m| (d as f64, m)))
                .collect();
            let style = color.stroke_width(3);
            chart
                .draw_series(LineSeries::new(means, style))?
                .label(format!("{} (mean; dashed: least and largest)", joint.kind.name()))
                .legend(legend_line(style));
        }
        draw_legend(&mut chart)?;
        Ok(())
    })
}

/// `astar.png`: mean search nodes A* dequeues by distance, log scale, one line per
/// estimate; a line stops where a sampled search exceeded the budget, drawn as a dashed
/// line, with a cross where it was passed.
pub fn astar(a: &Analysis, atlas: &Atlas, path: &Path) -> Result<()> {
    chart::canvas(path, SIZE, |root| {
        let rows = &atlas.effort.rows[..];
        let top = rows
            .iter()
            .filter_map(|r| r.nodes.map(|(mean, _)| mean))
            .fold(10.0f64, f64::max);
        // The budget is on the chart, so a line that stops is seen to stop there.
        let budget = BUDGET as f64;
        let top = 10f64.powf(top.max(budget).log10().ceil());
        let max_d = a.max_distance().max(1) as f64;
        let mut chart = captioned(root, format!("{}: A* search nodes by distance", a.title), 90)
            .build_cartesian_2d(0f64..max_d, (1f64..top).log_scale())?;
        let labels = (a.max_distance() + 1).min(30);
        draw_mesh(&mut chart, labels, "mean nodes dequeued (log scale)", None, &|y| {
            short_count(*y)
        })?;
        let limit = RGBColor(90, 90, 90).stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new([(0.0, budget), (max_d, budget)], 10, 6, limit))?
            .label(format!("budget: {} nodes (x: a search gave up)", short_count(budget)))
            .legend(legend_line(limit));
        for (joint, color) in atlas.joints.iter().zip(COLORS) {
            let kind_rows: Vec<_> = rows.iter().filter(|r| r.kind == joint.kind).collect();
            let points: Vec<(f64, f64)> = kind_rows
                .iter()
                .filter_map(|r| r.nodes.map(|(mean, _)| (r.distance as f64, mean)))
                .collect();
            let style = color.stroke_width(3);
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
            chart
                .draw_series(LineSeries::new(points, style))?
                .label(joint.kind.name())
                .legend(legend_line(style));
            // Where the line stops: the first distance a sampled search passed the budget.
            if let Some(gave_up) = kind_rows.iter().find(|r| r.nodes.is_none()) {
                let at = (gave_up.distance as f64, budget);
                chart.draw_series([Cross::new(at, 7, color.stroke_width(3))])?;
            }
        }
        draw_legend(&mut chart)?;
        Ok(())
    })
}

/// A chart on `root` under the bold `caption`, with `y_area` pixels for the vertical
/// axis's labels and title.
fn captioned<'a, 'b>(root: &'a chart::Area<'b>, caption: String, y_area: u32) -> ChartBuilder<'a, 'static, Band<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(caption, (FONT, 30, FontStyle::Bold))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(y_area);
    builder
}

/// Draws `chart`'s grid and axes: the true distance across with about `x_labels` labels,
/// `y` titled `y_desc`, labelled by `y_label` (about `y_labels` of them, when given).
fn draw_mesh<'a, Y: Ranged<ValueType = f64> + ValueFormatter<f64>>(
    chart: &mut ChartContext<'a, Band<'a>, Cartesian2d<RangedCoordf64, Y>>,
    x_labels: usize,
    y_desc: &str,
    y_labels: Option<usize>,
    y_label: &dyn Fn(&f64) -> String,
) -> Result<()> {
    let mut mesh = chart.configure_mesh();
    if let Some(n) = y_labels {
        mesh.y_labels(n);
    }
    mesh.light_line_style(WHITE)
        .bold_line_style(chart::GRID)
        .x_desc("true distance to the goal (moves)")
        .y_desc(y_desc)
        .x_labels(x_labels)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(y_label)
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 22))
        .draw()?;
    Ok(())
}

/// A legend entry's sample: a short stretch of the series' line.
fn legend_line(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 30, y)], style)
}

/// Draws the legend of `chart`'s labelled series in its upper left corner.
fn draw_legend<'a, CT: CoordTranslate>(chart: &mut ChartContext<'a, Band<'a>, CT>) -> Result<()> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        // Room for the 30-pixel sample and a gap before the label.
        .legend_area_size(40)
        .label_font((FONT, 18))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}
