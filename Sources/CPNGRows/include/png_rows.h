#ifndef THUMBIFY_PNG_ROWS_H
#define THUMBIFY_PNG_ROWS_H
#include <stddef.h>
#include <stdint.h>

/// What a PNG's rows look like after `thumbify_png_read_rows`'s transforms.
typedef struct {
  uint32_t width;
  uint32_t height;
  /// 3 (RGB) or 4 (RGBA, straight alpha): palette, grey, tRNS and 16-bit samples are expanded or scaled.
  int channels;
  /// Adam7: rows then arrive pass by pass, each pixel at (x0 + i·xstep, y).
  int interlaced;
  /// The iCCP chunk's profile, inflated by libpng (which checks its header and caps its size), or NULL:
  /// without an sRGB chunk only, and then the rows are not gamma-corrected (the profile holds the curve).
  /// Valid only during `begin`.
  const uint8_t *icc_profile;
  uint32_t icc_profile_length;
  /// libpng's warning when it refused an iCCP or cHRM chunk (no profile then, and no sRGB chunk), or NULL.
  /// Valid only during `begin`.
  const char *colour_warning;
  /// 1 when the caller is to convert from cHRM (and gAMA): an RGB image with a cHRM that is not sRGB's,
  /// and neither an sRGB chunk nor a profile. The rows are then not gamma-corrected.
  int has_chromaticities;
  /// cHRM ×100000: white point x, y, red x, y, green x, y, blue x, y.
  int32_t chromaticities[8];
  /// gAMA ×100000 (the file's encoding exponent, 45455 for 1/2.2), or 0 without a valid one.
  int32_t file_gamma;
  /// The eXIf chunk's TIFF structure (before the image data), or NULL; valid only during `begin`.
  const uint8_t *exif;
  uint32_t exif_length;
} thumbify_png_header;

/// Called once, after the header is read and before any pixel row; returns 0 to stop the read.
typedef int (*thumbify_png_begin)(void *context, const thumbify_png_header *header);
/// Called for each decoded row: `count` pixels of `channels` bytes, the i-th at (x0 + i·xstep, y).
typedef void (*thumbify_png_row)(void *context, const uint8_t *pixels, uint32_t count, uint32_t y,
                                 uint32_t x0, uint32_t xstep);

/// Reads a PNG held in memory row by row, with libpng's own transforms, without ever holding more than
/// one row of a large image: libpng errors (which longjmp) stay inside this C function.
///
/// An 8-bit RGB or RGBA image that is not interlaced, has no tRNS and needs no gamma correction, and
/// inflates to at most 8 MB, is inflated whole by libdeflate and unfiltered here instead (its rows are
/// the file's samples; about 2.5× faster than libpng's row reads for a 1200×630 photo); libpng still reads
/// every chunk before the image data, and a file that path does not take whole (a bad CRC, zlib stream
/// or filter type, a truncated or odd chunk list after the image data) is read by libpng after all.
///
/// The transforms match libpng's simplified API (`png_image_finish_read` to 8-bit sRGB RGB/RGBA with
/// PNG_IMAGE_FLAG_16BIT_sRGB): 16-bit samples are taken as sRGB-encoded and scaled, a gAMA other than
/// sRGB's is corrected to sRGB, grey becomes RGB, palette and tRNS become RGB(A). With an iCCP profile
/// (and no sRGB chunk) gAMA is ignored, as the PNG specification says: the profile is converted by
/// the caller; so is a cHRM that is not sRGB's (see `has_chromaticities`). Ancillary chunks are capped at 4 MB inflated (png_set_chunk_malloc_max).
///
/// Returns 1 when every row was delivered by libpng, 2 when by the whole-image path, 0 on a libpng error (`message` holds libpng's text), -1 when
/// `begin` stopped the read.
int thumbify_png_read_rows(const uint8_t *data, size_t size, void *context, thumbify_png_begin begin,
                           thumbify_png_row row, char *message, size_t message_size);

#endif
