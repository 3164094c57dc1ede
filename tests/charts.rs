//! The charts stay readable at every scale: rendered for extreme cases (counts up to
//! 2^60, two levels, two hundred levels), no text may reach the image edge, and each
//! axis's tick labels must stand apart from its title. The checks read the PNG pixels,
//! so they see what plotters really drew, not what the layout meant to draw.
//!
//! Set `CHARTS_OUT=folder` to keep the rendered images for a look.

use crate::util::{analysis, job};
use analyze::analysis::Analysis;
use analyze::puzzle::Symmetry;
use analyze::report::{bands, chart};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// `base` with its level counts replaced: a synthetic table of any shape.
/// Counted without symmetry: each configuration its own class.
fn with_levels(base: &Analysis, id: &str, levels: Vec<u64>) -> Analysis {
    Analysis {
        id: id.to_string(),
        title: format!("Synthetic {id}"),
        level_classes: levels.clone(),
        levels,
        symmetry: Symmetry::trivial(),
        ..base.clone()
    }
}

/// `base` with its level counts replaced and counted up to `order` symmetries: a second
/// line on the log chart, and a legend in place of the statistics.
fn by_class(base: &Analysis, id: &str, levels: Vec<u64>, order: u64) -> Analysis {
    Analysis {
        level_classes: levels.iter().map(|&n| n.div_ceil(order)).collect(),
        symmetry: Symmetry {
            order,
            made_of: format!("{order} synthetic symmetries"),
        },
        ..with_levels(base, id, levels)
    }
}

/// The cases that broke the layout: huge counts, a tiny table, very long tables.
fn extreme_cases() -> Vec<Analysis> {
    let eight = analysis(job("eight", &[]));
    // A bell of 120 levels peaking at 4e9, like the 2x7 board (109 levels, 4e9 at most).
    let bell: Vec<u64> = (0..120)
        .map(|d: i32| {
            let x = f64::from(d - 80) / 22.0;
            (4e9 * (-x * x).exp()).max(1.0) as u64
        })
        .collect();
    // A path: two configurations at every distance but the ends (a flat log chart).
    let mut path = vec![2; 200];
    path[0] = 1;
    path[199] = 1;
    vec![
        analysis(job("flip-k", &[("coins", 60), ("flip", 31)])),
        analysis(job("flip-k", &[("coins", 2), ("flip", 2)])),
        eight.clone(),
        with_levels(&eight, "bell-120", bell.clone()),
        by_class(&eight, "bell-120-by-class", bell, 96),
        with_levels(&eight, "path-200", path),
        with_levels(&eight, "one-level", vec![1]),
    ]
}

fn out_dir(temp: &Path) -> PathBuf {
    std::env::var_os("CHARTS_OUT").map_or_else(|| temp.to_path_buf(), PathBuf::from)
}

/// Dark enough to be text, an axis or data (gridlines are light grey).
fn ink(image: &RgbImage, x: u32, y: u32) -> bool {
    let [r, g, b] = image.pixel(x, y);
    u32::from(r) * 3 + u32::from(g) * 6 + u32::from(b) < 10 * 170
}

/// Anything that is not the white background.
fn drawn(image: &RgbImage, x: u32, y: u32) -> bool {
    image.pixel(x, y) != [255, 255, 255]
}

/// Lengths of the runs of `true` in `marks`, where runs closer than 3 apart count as one.
fn groups(marks: impl Iterator<Item = bool>) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, mark) in marks.enumerate() {
        if !mark {
            continue;
        }
        match runs.last_mut() {
            Some((_, end)) if i - *end <= 3 => *end = i,
            _ => runs.push((i, i)),
        }
    }
    runs
}

/// Nothing is drawn in the outer band of the image: a label that ran off the edge (or
/// off its margin) would show there.
fn assert_clear_edges(image: &RgbImage, name: &str) {
    let band = chart::MARGIN - 4;
    let (w, h) = image.dimensions();
    for y in 0..h {
        for x in 0..w {
            let inside = x >= band && y >= band && x < w - band && y < h - band;
            assert!(
                inside || !drawn(image, x, y),
                "{name}: something is drawn at the edge, pixel ({x}, {y})"
            );
        }
    }
}

/// The frame of the plot: the left and right vertical axis lines and their rows.
struct Frame {
    left: u32,
    right: Option<u32>,
    top: u32,
    bottom: u32,
}

/// Finds the axis lines: the columns inked all along the middle of the image.
fn frame(image: &RgbImage, name: &str) -> Frame {
    let (w, h) = image.dimensions();
    let full = |x: u32| (h * 35 / 100..h * 75 / 100).all(|y| ink(image, x, y));
    let left = (0..w / 3)
        .find(|&x| full(x))
        .unwrap_or_else(|| panic!("{name}: no y axis"));
    let right = (w * 2 / 3..w).rev().find(|&x| full(x));
    let top = (0..h / 2).rev().find(|&y| !ink(image, left, y)).map_or(0, |y| y + 1);
    let bottom = (h / 2..h).find(|&y| !ink(image, left, y)).map_or(h, |y| y - 1);
    Frame {
        left,
        right,
        top,
        bottom,
    }
}

/// Beside an axis, the tick labels and the axis title are separate groups of ink: a
/// label overlapping the title would merge them into one.
fn assert_labels_apart_from_titles(image: &RgbImage, name: &str, two_axes: bool) {
    let (w, h) = image.dimensions();
    let f = frame(image, name);
    let rows = f.top..=f.bottom;
    let column = |x: u32| rows.clone().any(|y| ink(image, x, y));
    let left = groups((0..f.left.saturating_sub(6)).map(column));
    assert!(
        left.len() >= 2,
        "{name}: the y labels run into the y axis title (ink groups {left:?})"
    );
    if two_axes {
        let right = f.right.unwrap_or_else(|| panic!("{name}: no right axis"));
        let groups = groups((right + 6..w).map(column));
        assert!(
            groups.len() >= 2,
            "{name}: the right labels run into the right axis title (ink groups {groups:?})"
        );
    }
    let columns = f.left..f.right.unwrap_or(w);
    let below = groups((f.bottom + 6..h).map(|y| columns.clone().any(|x| ink(image, x, y))));
    assert!(
        below.len() >= 2,
        "{name}: the x labels run into the x axis title (ink groups {below:?})"
    );
}

/// A decoded chart: 8-bit RGB pixels, row by row (the charts are written as such).
struct RgbImage {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl RgbImage {
    fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y as usize * self.width as usize + x as usize);
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }
}

fn load(path: &Path) -> RgbImage {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap_or_else(|e| panic!("{} is not a PNG: {e}", path.display()));
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).expect("a frame");
    assert_eq!(
        (frame.color_type, frame.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight),
        "{}: charts are 8-bit RGB",
        path.display()
    );
    pixels.truncate(frame.buffer_size());
    RgbImage {
        width: frame.width,
        height: frame.height,
        pixels,
    }
}

#[test]
fn charts_of_extreme_tables_keep_every_label_inside_and_apart() {
    let temp = tempfile::tempdir().expect("temp dir");
    let dir = out_dir(temp.path());
    type Render = fn(&Analysis, &Path) -> Result<(), Box<dyn std::error::Error + Send + Sync>>;
    let charts: [(&str, Render, bool); 3] = [
        ("distances", chart::distances, false),
        ("distances-log", chart::distances_log, false),
        ("growth", chart::growth, true),
    ];
    for a in extreme_cases() {
        for (kind, render, two_axes) in charts {
            let name = format!("{}-{kind}.png", a.id);
            let path = dir.join(&name);
            render(&a, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
            let image = load(&path);
            assert_eq!(image.dimensions(), chart::SIZE, "{name}");
            assert_clear_edges(&image, &name);
            if a.levels.len() > 1 {
                assert_labels_apart_from_titles(&image, &name, two_axes);
            }
        }
    }
}

/// The overview at `path` keeps its text inside (`--all`'s, of every default puzzle, is
/// checked in `cli.rs`).
pub fn assert_overview_inside(path: &Path) {
    let image = load(path);
    assert_eq!(image.dimensions(), chart::OVERVIEW_SIZE);
    assert_clear_edges(&image, "overview.png");
}

#[test]
fn overview_of_extreme_tables_keeps_its_text_inside() {
    let temp = tempfile::tempdir().expect("temp dir");
    let path = out_dir(temp.path()).join("overview.png");
    chart::overview(&extreme_cases(), &path).expect("overview renders");
    assert_overview_inside(&path);
}

#[test]
fn huge_counts_get_short_labels() {
    let top = 2f64.powi(60);
    for tick in chart::linear_ticks(top, 6) {
        let label = chart::count_label(tick, top);
        assert!(label.len() <= 6, "{tick} is labelled {label}");
        if tick > 0.0 {
            let value: f64 = label.parse().expect("a number");
            assert!((value - tick).abs() / tick < 0.05, "{label} is not {tick}");
        }
    }
    assert_eq!(chart::count_label(24_000.0, 24_047.0), "24k");
    assert_eq!(chart::count_label(1.2e18, 1.2e18), "1.2e18");
    assert_eq!(chart::number_label(0.25), "0.25");
    assert_eq!(chart::number_label(2e-18), "2e-18");
}

#[test]
fn log_ticks_span_the_data_and_no_more() {
    assert_eq!(chart::log_ticks(0.5, 48_094.0), [1.0, 10.0, 100.0, 1e3, 1e4]);
    assert_eq!(chart::log_ticks(0.5, 4.0), [0.5, 1.0, 2.0]);
    let many = chart::log_ticks(0.5, 2.3e18);
    assert!(many.len() <= 10 && many.first() == Some(&1.0), "{many:?}");
}

/// Every kind of element the charts draw, crossing band edges: text upright and turned (with
/// accents and descenders), lines thin, thick and sloped, discs and thick rings, a polygon, translucent
/// fills; with `noise`, a field of pseudo-random pixels that deflate cannot shrink.
fn scene<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    noise: bool,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    for i in 0..40 {
        let y = i * 17 + 3;
        let font = ("sans-serif", 10 + i as u32).into_font().color(&BLACK);
        root.draw(&Text::new(format!("band {i}: Ég jÅ"), (i * 23, y), font))?;
        let line = RGBColor(200, 30, 30).stroke_width(1 + i as u32 % 4);
        root.draw(&PathElement::new(vec![(0, y), (1199, 699 - y)], line))?;
        root.draw(&Circle::new((600 + i * 7, y), i as u32 % 9 + 1, BLUE.mix(0.6).filled()))?;
        let ring = BLACK.stroke_width(2 + i as u32 % 12);
        root.draw(&Circle::new((900 + i * 5, y), i as u32 % 7 + 8, ring))?;
        root.draw(&Rectangle::new(
            [(i * 30, y), (i * 30 + 50, y + 70)],
            GREEN.mix(0.3).filled(),
        ))?;
    }
    root.draw(&Polygon::new(
        vec![(100, 10), (1100, 300), (300, 690)],
        RED.mix(0.4).filled(),
    ))?;
    let turned = ("sans-serif", 30)
        .into_font()
        .transform(FontTransform::Rotate270)
        .color(&BLACK);
    root.draw(&Text::new("turned text", (20, 350), turned))?;
    if noise {
        let mut seed = 12345u64;
        for y in 0..700 {
            for x in 0..1200 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let [r, g, b, ..] = (seed >> 32).to_le_bytes();
                root.draw_pixel((x, y), &RGBColor(r, g, b))?;
            }
        }
    }
    Ok(())
}

/// The pixels of `scene` drawn on one whole bitmap, as plotters drew charts before they were
/// drawn in bands.
fn whole_bitmap(noise: bool) -> Vec<u8> {
    let (w, h) = chart::SIZE;
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, chart::SIZE).into_drawing_area();
        scene(&root, noise).expect("the scene draws");
    }
    pixels
}

#[test]
fn charts_drawn_in_bands_are_the_pixels_of_a_whole_bitmap() {
    // Registers the embedded font the scene's text uses.
    chart::text_size("x", 10);
    let temp = tempfile::tempdir().expect("a temporary folder");
    for noise in [false, true] {
        let path = temp.path().join("bands.png");
        bands::render(&path, chart::SIZE, |root| Ok(scene(root, noise)?)).expect("the scene renders");
        let png = load(&path);
        assert_eq!(png.dimensions(), chart::SIZE);
        assert!(
            png.pixels == whole_bitmap(noise),
            "the banded PNG's pixels differ (noise: {noise})"
        );
    }
}
