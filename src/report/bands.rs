//! Charts drawn a band of rows at a time and streamed into their PNG file, so no bitmap of
//! the whole chart is ever held: a 1200 x 700 bitmap is 2.5 MB, more than a quarter of what
//! a small analysis's whole process needed, and [`ROWS`] rows are 230 KB.
//!
//! [`render`] runs the chart's drawing code once per band on a [`Band`], a plotters backend
//! that keeps the whole image's coordinates and size (so every layout and rasterising
//! decision is the one a whole bitmap gets) and writes only the pixels of its rows. Each
//! pixel therefore sees the same drawing operations in the same order as in a whole
//! bitmap: the bands put together are that bitmap, pixel for pixel. The rows are streamed
//! into the `png` crate's encoder as they are drawn.
//!
//! Drawing is repeated per band; what cannot touch a band (text, polygons, circles outside
//! its rows) is skipped before it is rasterised, so a chart costs little more than once.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, rasterizer,
};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error + Send + Sync>>;
type Drawn = std::result::Result<(), DrawingErrorKind<BitMapError>>;
/// What drawing on a bitmap can fail with.
type BitMapError = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

/// Rows drawn at a time.
pub const ROWS: u32 = 64;
/// Bytes per pixel (RGB).
const PIXEL: usize = 3;

/// A chart's drawing area: the whole image, of which one band of rows is kept.
pub type Area<'a> = DrawingArea<Band<'a>, Shift>;

/// Draws the image of `size` pixels at `path` as a PNG: `draw` runs once per band of
/// [`ROWS`] rows, on the whole image's area filled white, and the band's rows go to the
/// `png` crate's stream writer (fast deflate, the Paeth filter on every row: choosing a
/// filter per row took a third of a small puzzle's whole run, for files 2% smaller).
pub fn render(path: &Path, size: (u32, u32), draw: impl Fn(&Area<'_>) -> Result<()>) -> Result<()> {
    let width = size.0 as usize * PIXEL;
    let mut encoder = png::Encoder::new(BufWriter::new(File::create(path)?), size.0, size.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
    encoder.set_filter(png::FilterType::Paeth);
    let mut writer = encoder.write_header()?;
    let mut stream = writer.stream_writer()?;
    let mut buffer = vec![0u8; width * ROWS.min(size.1) as usize];
    for top in (0..size.1).step_by(ROWS as usize) {
        let rows = ROWS.min(size.1 - top);
        let pixels = &mut buffer[..width * rows as usize];
        {
            let root = Band::new(pixels, size, top, rows).into_drawing_area();
            root.fill(&WHITE)?;
            draw(&root)?;
        }
        stream.write_all(pixels)?;
    }
    stream.finish()?;
    Ok(())
}

/// A plotters backend for the image of `size` pixels that keeps rows `top..top + rows` only.
///
/// Operations that are exact under a vertical shift (a pixel; a filled rectangle, which a
/// horizontal or vertical one-pixel line is) are passed, shifted, to a [`BitMapBackend`] of
/// the band's rows, which clips them. Everything else (sloped and wide lines, polygons,
/// circles, text) is rasterised by plotters' own rasteriser in whole-image coordinates
/// down to those, exactly as the whole bitmap's backend does, since the rasteriser's
/// clipping and rounding depend on the coordinates and the image size.
pub struct Band<'a> {
    inner: BitMapBackend<'a>,
    size: (u32, u32),
    top: i32,
    bottom: i32,
}

impl<'a> Band<'a> {
    fn new(pixels: &'a mut [u8], size: (u32, u32), top: u32, rows: u32) -> Self {
        Band {
            inner: BitMapBackend::with_buffer(pixels, (size.0, rows)),
            size,
            top: top as i32,
            bottom: (top + rows) as i32,
        }
    }

    fn shift(&self, (x, y): BackendCoord) -> BackendCoord {
        (x, y - self.top)
    }

    /// Whether rows `from..=to` (in either order) come within `margin` of the band.
    fn reaches(&self, from: i32, to: i32, margin: i32) -> bool {
        from.min(to) - margin < self.bottom && from.max(to) + margin >= self.top
    }
}

impl DrawingBackend for Band<'_> {
    type ErrorType = BitMapError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        if (self.top..self.bottom).contains(&point.1) {
            self.inner.draw_pixel(self.shift(point), color)?;
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Drawn {
        // `BitMapBackend` fills these as rectangles.
        if (from.0 == to.0 || from.1 == to.1) && style.stroke_width() == 1 {
            return self.inner.draw_line(self.shift(from), self.shift(to), style);
        }
        // Half the width on either side, antialiasing a pixel more.
        if !self.reaches(from.1, to.1, style.stroke_width() as i32 + 2) {
            return Ok(());
        }
        rasterizer::draw_line(self, from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if fill {
            return self
                .inner
                .draw_rect(self.shift(upper_left), self.shift(bottom_right), style, true);
        }
        rasterizer::draw_rect(self, upper_left, bottom_right, style, false)
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Drawn {
        // A ring's stroke reaches half its width beyond the radius, antialiasing a pixel more.
        if !self.reaches(center.1, center.1, (radius + style.stroke_width()) as i32 + 2) {
            return Ok(());
        }
        rasterizer::draw_circle(self, center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Drawn {
        let vertices: Vec<BackendCoord> = vert.into_iter().collect();
        let low = vertices.iter().map(|v| v.1).min().unwrap_or(0);
        let high = vertices.iter().map(|v| v.1).max().unwrap_or(0);
        // Antialiasing reaches a pixel beyond the vertices.
        if !self.reaches(low, high, 2) {
            return Ok(());
        }
        rasterizer::fill_polygon(self, &vertices, style)
    }

    /// plotters' own `draw_text`, but text whose glyphs cannot reach the band is not
    /// rasterised.
    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Drawn {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (width, height) = (max_x - min_x, max_y - min_y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        let trans = style.transform();
        // A glyph stays within the font's bounding box: DejaVu's reaches 1.1 times the font
        // size above the line and 0.9 sideways. The layout box is 0.8 times the size high,
        // so three times its height on every side is room to spare.
        let spare = 3 * height + 4;
        let corners = [
            (dx - spare, dy - spare),
            (dx + width + spare, dy - spare),
            (dx - spare, dy + height + spare),
            (dx + width + spare, dy + height + spare),
        ]
        .map(|(x, y)| trans.transform(x, y).1);
        let (low, high) = (corners.iter().min(), corners.iter().max());
        if let (Some(&low), Some(&high)) = (low, high)
            && !self.reaches(pos.1 + low, pos.1 + high, 0)
        {
            return Ok(());
        }
        let (w, h) = self.get_size();
        let drawn = style.draw(text, (0, 0), |x, y, color| {
            let (x, y) = trans.transform(x + dx - min_x, y + dy - min_y);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                self.draw_pixel((x, y), color)
            } else {
                Ok(())
            }
        });
        match drawn {
            Ok(drawn) => drawn,
            Err(e) => Err(DrawingErrorKind::FontError(Box::new(e))),
        }
    }
}
