#ifndef THUMBIFY_COLOUR_PLANES_H
#define THUMBIFY_COLOUR_PLANES_H
#include <stdint.h>

/// A matrix/TRC profile's conversion to sRGB as tables and a matrix (Swift's `MatrixShaperConversion`).
typedef struct {
  /// 3 × 256 entries: a red, green or blue sample → linear light.
  const float *linear;
  /// Linear sRGB of the profile's linear red, green and blue: channel c of the result is
  /// `matrix[c] · r + matrix[3 + c] · g + matrix[6 + c] · b`, evaluated left to right.
  float matrix[9];
  /// `encode_steps` entries: sRGB's 8-bit encoding of linear light `i / (encode_steps − 1)`.
  const uint8_t *encode;
  int32_t encode_steps;
} thumbify_matrix_shaper;

/// How a pixel gets its chroma before the conversion.
typedef enum {
  /// The chroma sample that covers it (as Swift's `YCbCrImage.rgb()`).
  THUMBIFY_CHROMA_NEAREST = 0,
  /// libjpeg's "fancy" triangle filter (h2v2, h2v1 and h1v2, as its RGB decode does); 4:4:4 needs none.
  THUMBIFY_CHROMA_TRIANGLE = 1,
} thumbify_chroma_upsampling;

/// Converts full-range Y′CbCr planes of a profile's RGB to full-range 4:2:0 planes of sRGB in one pass
/// over 2×2 blocks: each pixel's chroma (`upsampling`), BT.601 to RGB (16.16 fixed point, as
/// `YCbCrImage.rgb()`), the tables and matrix, clipping, sRGB's encode table, then Y′ per pixel and each
/// block's Cb and Cr from the mean of its converted pixels (the last column or row of an odd size counted
/// twice, as `YCbCrImage(fullRange:)`).
///
/// `y` is `width` × `height`, `cb` and `cr` are `chroma_width` × `chroma_height` (the luma size divided
/// by `factor_x`, `factor_y`, rounded up), all tightly packed. `out_y` takes `width` × `height` samples,
/// `out_cb` and `out_cr` ⌈width / 2⌉ × ⌈height / 2⌉ each.
///
/// `out_y_sixteenths`, when not NULL, takes `width` × `height` samples more: each pixel's Y′ in sixteenths
/// of a level (0…4080, from the converted R, G, B as `out_y` is), from which the plane resize starts with
/// four more bits than `out_y` keeps (docs/imaging.md).
///
/// `widest_isa` is the widest instruction set it may use: 0 portable C, 1 SSE2 (x86-64's baseline), 2 AVX2
/// where the CPU has it (checked at run time; production passes 2). Every level gives the same bytes.
///
/// Returns 1 when done, 0 when declined (nothing written): a factor other than 1 or 2, a chroma size that
/// does not match, or an empty image.
int thumbify_convert_planes(const thumbify_matrix_shaper *conversion, const uint8_t *y, const uint8_t *cb,
                            const uint8_t *cr, int32_t width, int32_t height, int32_t chroma_width,
                            int32_t chroma_height, int32_t factor_x, int32_t factor_y,
                            thumbify_chroma_upsampling upsampling, int32_t widest_isa, uint8_t *out_y,
                            int16_t *out_y_sixteenths, uint8_t *out_cb, uint8_t *out_cr);

#endif
