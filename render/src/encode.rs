//! Encoding: indexed canvases to PNG and GIF bytes, a separate step from drawing.

use std::borrow::Cow;
use std::cell::RefCell;

use zlib_rs::{Deflate, DeflateFlush, Status};

use crate::RenderError;
use crate::draw::Canvas;
use crate::layout::Rect;
use crate::theme::Palette;

/// An indexed PNG: each row filtered with Up (to zeros) where it repeats the row above and left
/// as it is (None) elsewhere, deflated by zlib-rs at level 2 in one call. Measured on the
/// benchmark's board with its caption (deflate alone, fastest run): `miniz_oxide` at level 1 took
/// 0.73 ms for 32.6 KB with Up on every row (over the 30 KB target) and at levels 2 and up 1.9 ms
/// or more; zlib-rs at level 2 takes as long as that level 1 for 25.9 KB, at level 3 0.95 ms for
/// 25.5 KB, and at level 1 (fixed Huffman codes) makes 35.7 KB; fdeflate is faster but twice as
/// large. The filters, each at level 2: Up on every row 25.9 KB, None 24.8, Sub 25.4, Paeth 25.4,
/// the per-row choice of the smallest sum of deltas (as libpng does) 25.4 over None, Sub and Up
/// and 26.6 over all five, and these repeated rows as Up 23.7: Up turns a band of squares into
/// long runs of zeros, while a row with pieces or text, left as it is, repeats the sprites and
/// letters of the rows above and beside it, which the compressor finds.
/// The chunks are written here because the png crate feeds its compressor row by row, and each
/// of those calls clears the output buffer's spare capacity, half of the whole encoding time.
pub(crate) fn png(canvas: &Canvas, palette: &Palette) -> Result<Vec<u8>, RenderError> {
    let (w, h) = (canvas.width as usize, canvas.height as usize);
    if w == 0 || h == 0 || canvas.pixels.len() != w * h {
        return Err(RenderError::Encode(format!("a {w}x{h} canvas holds {} pixels", canvas.pixels.len())));
    }
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let Scratch { compressor, raw, deflated } = &mut *scratch;
        // Every byte is written below: resizing (not clearing) keeps the last image's bytes
        // instead of zeroing the whole buffer first.
        raw.resize((w + 1) * h, 0);
        for (y, out) in raw.chunks_exact_mut(w + 1).enumerate() {
            let row = &canvas.pixels[y * w..(y + 1) * w];
            if y > 0 && *row == canvas.pixels[(y - 1) * w..y * w] {
                out[0] = 2; // Up, which makes a row like the one above all zeros
                out[1..].fill(0);
            } else {
                out[0] = 0; // None
                out[1..].copy_from_slice(row);
            }
        }
        let deflated = deflate(compressor, raw, deflated)?;
        let mut out = Vec::with_capacity(deflated.len() + palette.len() * 3 + 64);
        out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
        let mut header = Vec::with_capacity(13);
        header.extend_from_slice(&canvas.width.to_be_bytes());
        header.extend_from_slice(&canvas.height.to_be_bytes());
        header.extend_from_slice(&[8, 3, 0, 0, 0]); // 8 bits, indexed colour, deflate, adaptive filters, no interlace
        chunk(&mut out, *b"IHDR", &header);
        chunk(&mut out, *b"PLTE", &palette.bytes(palette.len()));
        chunk(&mut out, *b"IDAT", deflated);
        chunk(&mut out, *b"IEND", &[]);
        Ok(out)
    })
}

/// What one thread keeps between two PNGs: the compressor's window and tables (some 320 KB) and
/// the two image-sized buffers. Made afresh for every image they were most of its cost after the
/// deflate itself: the allocator hands blocks this large back to the system, so every image
/// paid page faults to zero them again.
struct Scratch {
    compressor: Deflate,
    raw: Vec<u8>,
    deflated: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        compressor: Deflate::new(LEVEL, true, 15),
        raw: Vec::new(),
        deflated: Vec::new(),
    });
}

/// The zlib level of board PNGs (see [`png`]).
const LEVEL: i32 = 2;

/// `input` as a zlib stream (see [`png`]), with `compressor` reset first, into the front of
/// `output`. The buffer keeps its length between images (it only grows), so that its 300 KB or
/// so (an 11x11 board of 820x768 pixels) are not zeroed again for every board.
fn deflate<'a>(compressor: &mut Deflate, input: &[u8], output: &'a mut Vec<u8>) -> Result<&'a [u8], RenderError> {
    compressor.reset();
    let least = (input.len() / 2).max(64);
    if output.len() < least {
        output.resize(least, 0);
    }
    loop {
        let (read, written) = (compressor.total_in() as usize, compressor.total_out() as usize);
        let status = compressor
            .compress(&input[read..], &mut output[written..], DeflateFlush::Finish)
            .map_err(|e| RenderError::Encode(format!("deflate failed: {}", e.as_str())))?;
        match status {
            Status::StreamEnd => return Ok(&output[..compressor.total_out() as usize]),
            // The output is full: more room, and the stream goes on where it stopped.
            Status::Ok | Status::BufError => output.resize(output.len() * 2, 0),
        }
    }
}

fn chunk(out: &mut Vec<u8>, kind: [u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(&kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theme::Theme;

    /// `canvas` encoded and decoded again by the `image` crate, as RGB pixels.
    fn round_trip(canvas: &Canvas, palette: &Palette) -> Vec<[u8; 3]> {
        let png = png(canvas, palette).expect("the canvas encodes");
        let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).expect("the PNG decodes");
        assert_eq!((image.width(), image.height()), (canvas.width, canvas.height));
        image.to_rgb8().pixels().map(|p| p.0).collect()
    }

    fn colours(canvas: &Canvas, palette: &Palette) -> Vec<[u8; 3]> {
        canvas.pixels.iter().map(|&i| palette.rgb_of(i)).collect()
    }

    /// Rows that repeat the row above (filtered with Up) and rows that do not (None), the first
    /// row among them, come back as they were drawn.
    #[test]
    fn repeated_and_changed_rows_decode_to_the_colours_drawn() {
        let palette = Palette::new(Theme::Classic);
        let n = palette.len() as u32;
        let mut canvas = Canvas::new(37, 23, 3);
        for y in 0..canvas.height {
            for x in 0..canvas.width {
                // Bands of three equal rows, each band different from the last.
                let band = y / 3;
                let index = if (x + band) % 5 == 0 { (x * 7 + band * 13) % n } else { band % n };
                canvas.set(i64::from(x), i64::from(y), index as u8);
            }
        }
        assert_eq!(round_trip(&canvas, &palette), colours(&canvas, &palette));
    }

    /// Noise deflates to more than the room first set aside for it (half the input), so the
    /// output grows while the stream goes on.
    #[test]
    fn an_image_that_does_not_compress_is_encoded_whole() {
        let palette = Palette::new(Theme::HighContrast);
        let mut canvas = Canvas::new(300, 200, 0);
        let mut state = 0x2545_f491_u32;
        for p in &mut canvas.pixels {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            *p = (state % palette.len() as u32) as u8;
        }
        assert_eq!(round_trip(&canvas, &palette), colours(&canvas, &palette));
        // A second image on the same thread reuses the compressor and buffers.
        let small = Canvas::new(5, 4, 1);
        assert_eq!(round_trip(&small, &palette), colours(&small, &palette));
    }
}
