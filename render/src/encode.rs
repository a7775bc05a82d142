//! Encoding: indexed canvases to PNG and GIF bytes, a separate step from drawing.

use std::borrow::Cow;

use crate::RenderError;
use crate::draw::Canvas;
use crate::layout::Rect;
use crate::theme::Palette;

/// An indexed PNG. Measured on an 11x11 board (see the benchmark): zlib level 1 with the Paeth
/// filter is the only setting under both 2 ms and 30 KB; fdeflate's ultra-fast mode is four
/// times faster but twice as large, level 2 and up are smaller but take 4-6 ms.
pub(crate) fn png(canvas: &Canvas, palette: &Palette) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(32 * 1024);
    let mut encoder = png::Encoder::new(&mut out, canvas.width, canvas.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.bytes(palette.len()));
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::Paeth);
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer.write_image_data(&canvas.pixels).map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    Ok(out)
}

fn encode_error(e: impl std::fmt::Display) -> RenderError {
    RenderError::Encode(e.to_string())
}

/// An animated GIF with one global palette, written frame by frame.
pub(crate) struct Gif {
    encoder: gif::Encoder<Vec<u8>>,
    transparent: u8,
}

impl Gif {
    pub(crate) fn new(width: u32, height: u32, palette: &Palette) -> Result<Gif, RenderError> {
        let (w, h) = (dimension(width)?, dimension(height)?);
        let mut encoder =
            gif::Encoder::new(Vec::with_capacity(256 * 1024), w, h, &palette.bytes(256)).map_err(encode_error)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(encode_error)?;
        Ok(Gif { encoder, transparent: palette.transparent() })
    }

    /// The whole canvas as a frame shown for `delay_ms`.
    pub(crate) fn full(&mut self, canvas: &Canvas, delay_ms: u32) -> Result<(), RenderError> {
        let frame = gif::Frame {
            width: dimension(canvas.width)?,
            height: dimension(canvas.height)?,
            delay: centiseconds(delay_ms),
            buffer: Cow::Borrowed(&canvas.pixels),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(encode_error)
    }

    /// Only `rect` of `canvas`, with pixels equal in `before` (the same rectangle as it was in
    /// the previous frame) left transparent: unchanged runs cost almost nothing to compress.
    pub(crate) fn partial(
        &mut self,
        canvas: &Canvas,
        rect: Rect,
        before: &[u8],
        delay_ms: u32,
    ) -> Result<(), RenderError> {
        let mut buffer = Vec::with_capacity((rect.w * rect.h) as usize);
        for row in 0..rect.h {
            let start = ((rect.y + row) * canvas.width + rect.x) as usize;
            let now = &canvas.pixels[start..start + rect.w as usize];
            let then = &before[(row * rect.w) as usize..((row + 1) * rect.w) as usize];
            buffer.extend(now.iter().zip(then).map(|(&n, &t)| if n == t { self.transparent } else { n }));
        }
        let frame = gif::Frame {
            left: dimension(rect.x)?,
            top: dimension(rect.y)?,
            width: dimension(rect.w)?,
            height: dimension(rect.h)?,
            delay: centiseconds(delay_ms),
            transparent: Some(self.transparent),
            dispose: gif::DisposalMethod::Keep,
            buffer: Cow::Owned(buffer),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame).map_err(encode_error)
    }

    pub(crate) fn finish(self) -> Result<Vec<u8>, RenderError> {
        self.encoder.into_inner().map_err(encode_error)
    }
}

/// A rectangle's pixels as they are now, to compare with after drawing.
pub(crate) fn snapshot(canvas: &Canvas, rect: Rect) -> Vec<u8> {
    let mut out = Vec::with_capacity((rect.w * rect.h) as usize);
    for row in 0..rect.h {
        let start = ((rect.y + row) * canvas.width + rect.x) as usize;
        out.extend_from_slice(&canvas.pixels[start..start + rect.w as usize]);
    }
    out
}

fn dimension(v: u32) -> Result<u16, RenderError> {
    u16::try_from(v).map_err(|_| RenderError::Encode(format!("{v} pixels is beyond what a GIF can hold")))
}

fn centiseconds(ms: u32) -> u16 {
    u16::try_from(ms.div_ceil(10)).unwrap_or(u16::MAX)
}
