#include "png_rows.h"

#include <libdeflate.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
  char *message;
  size_t message_size;
  /// libpng's first warning about a colour chunk (iCCP, cHRM), which is how it says it dropped one.
  char colour_warning[256];
} reader;

static void on_error(png_structp png, png_const_charp text) {
  reader *source = png_get_error_ptr(png);
  if (source->message_size > 0) {
    strncpy(source->message, text ? text : "libpng reported no message.", source->message_size - 1);
    source->message[source->message_size - 1] = 0;
  }
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  // libpng prefixes a chunk's warnings with its name ("iCCP: CRC error"), except for chromaticities it
  // cannot invert ("invalid chromaticities"); a colour chunk it refuses is dropped with only such a
  // warning, which the caller turns into a typed one.
  reader *source = png_get_error_ptr(png);
  int is_colour = text && (strncmp(text, "iCCP", 4) == 0 || strncmp(text, "cHRM", 4) == 0 ||
                           strstr(text, "chromaticities") != NULL);
  if (is_colour && source->colour_warning[0] == 0) {
    strncpy(source->colour_warning, text, sizeof source->colour_warning - 1);
  }
}

/// Whether cHRM's chromaticities (×100000: white x, y, red x, y, green x, y, blue x, y) are sRGB's
/// (BT.709 primaries, D65), within libpng's own tolerance for that comparison (0.001).
static int is_srgb_chromaticities(const png_fixed_point xy[8]) {
  static const png_fixed_point srgb[8] = {31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000};
  for (int i = 0; i < 8; i++) {
    if (xy[i] < srgb[i] - 100 || xy[i] > srgb[i] + 100) return 0;
  }
  return 1;
}

static void on_read(png_structp png, png_bytep out, size_t length) {
  reader *source = png_get_io_ptr(png);
  if (length > source->size - source->offset) png_error(png, "Read beyond end of data");
  memcpy(out, source->data + source->offset, length);
  source->offset += length;
}


/// The largest inflated image (filter bytes included) `read_whole_image` takes: a 1920×1080 RGB or a
/// 1400×1400 RGBA picture. A larger one is read row by row, so that a decode for a thumbnail never holds
/// more than one row of a huge PNG.
#define WHOLE_IMAGE_MAX ((size_t)8 << 20)

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/// Whether the chunk at `offset` fits in the data and its CRC (over type and payload) is right.
static int chunk_is_whole(const reader *source, size_t offset, uint32_t *length) {
  if (source->size - offset < 12) return 0;
  *length = be32(source->data + offset);
  if (*length > source->size - offset - 12) return 0;
  uint32_t crc = (uint32_t)libdeflate_crc32(0, source->data + offset + 4, (size_t)*length + 4);
  return crc == be32(source->data + offset + 8 + *length);
}

static uint8_t paeth_scalar(int a, int b, int c) {
  int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
  return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

#if defined(__SSE2__)
// Paeth on one pixel at a time in 16-bit lanes, as libpng's own SSE2 code (which Debian's libpng is
// built without) does: the predictor depends on the pixel to the left, so pixels cannot be batched.
static __m128i load_pixel(const uint8_t *p, int bpp) {
  int32_t v = 0;
  memcpy(&v, p, (size_t)bpp);
  return _mm_cvtsi32_si128(v);
}

static void store_pixel(uint8_t *p, __m128i pixel, int bpp) {
  int32_t v = _mm_cvtsi128_si32(pixel);
  memcpy(p, &v, (size_t)bpp);
}

static __m128i abs_i16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

static __m128i select_i16(__m128i mask, __m128i yes, __m128i no) {
  return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

static inline __attribute__((always_inline)) void paeth_row_sse2(uint8_t *row, const uint8_t *prev, size_t rowbytes,
                                                                 int bpp) {
  __m128i zero = _mm_setzero_si128(), a = zero, c = zero;
  for (size_t i = 0; i < rowbytes; i += (size_t)bpp) {
    __m128i b = _mm_unpacklo_epi8(load_pixel(prev + i, bpp), zero);
    __m128i d = _mm_unpacklo_epi8(load_pixel(row + i, bpp), zero);
    __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
    __m128i pc = abs_i16(_mm_add_epi16(pa, pb));
    pa = abs_i16(pa);
    pb = abs_i16(pb);
    __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
    __m128i predictor =
        select_i16(_mm_cmpeq_epi16(pa, smallest), a, select_i16(_mm_cmpeq_epi16(pb, smallest), b, c));
    d = _mm_add_epi8(d, predictor);  // the low byte of each lane wraps as a byte does
    store_pixel(row + i, _mm_packus_epi16(d, d), bpp);
    a = d;
    c = b;
  }
}
#endif

/// Undoes one row's filter in place (`prev` is the row above, already unfiltered, or NULL for the first
/// row); 0 for a filter type PNG does not define.
static int unfilter_row(int filter, uint8_t *row, const uint8_t *prev, size_t rowbytes, int bpp) {
  switch (filter) {
  case 0:
    return 1;
  case 1:
    for (size_t i = (size_t)bpp; i < rowbytes; i++) row[i] = (uint8_t)(row[i] + row[i - (size_t)bpp]);
    return 1;
  case 2:
    if (prev) {
      for (size_t i = 0; i < rowbytes; i++) row[i] = (uint8_t)(row[i] + prev[i]);
    }
    return 1;
  case 3:
    for (size_t i = 0; i < rowbytes; i++) {
      int left = i >= (size_t)bpp ? row[i - (size_t)bpp] : 0;
      int up = prev ? prev[i] : 0;
      row[i] = (uint8_t)(row[i] + ((left + up) >> 1));
    }
    return 1;
  case 4:
    if (!prev) return unfilter_row(1, row, prev, rowbytes, bpp);  // above is 0: Paeth picks the left
#if defined(__SSE2__)
    if (bpp == 3) {
      paeth_row_sse2(row, prev, rowbytes, 3);
      return 1;
    }
    if (bpp == 4) {
      paeth_row_sse2(row, prev, rowbytes, 4);
      return 1;
    }
#endif
    for (size_t i = 0; i < rowbytes; i++) {
      int left = i >= (size_t)bpp ? row[i - (size_t)bpp] : 0;
      int corner = i >= (size_t)bpp ? prev[i - (size_t)bpp] : 0;
      row[i] = (uint8_t)(row[i] + paeth_scalar(left, prev[i], corner));
    }
    return 1;
  default:
    return 0;
  }
}

/// The fast path for the common PNG, an 8-bit RGB or RGBA image that is neither interlaced nor to be
/// transformed: every IDAT (CRCs checked) is inflated in one call by libdeflate, which is about twice as
/// fast as zlib fed row by row, and unfiltered here (SSE2 Paeth). libpng has read the chunks before the
/// first IDAT and stays the reader of everything else.
///
/// Nothing reaches `row` unless the whole image inflated and unfiltered and the chunks after the IDATs
/// are whole ancillary ones up to IEND; otherwise it returns 0 and the caller reads with libpng from
/// where libpng stopped, so a damaged file gets libpng's verdict and message. Returns 1 when every row
/// was delivered, -1 when out of memory.
static int read_whole_image(reader *source, png_uint_32 width, png_uint_32 height, int channels,
                            void *context, thumbify_png_row row) {
  size_t rowbytes = (size_t)width * (size_t)channels;
  if (height == 0 || rowbytes == 0 || (rowbytes + 1) > WHOLE_IMAGE_MAX / height) return 0;
  size_t stride = rowbytes + 1;
  size_t inflated_size = stride * height;
  // png_read_info stops after the first IDAT's length and type.
  size_t first = source->offset;
  if (first < 8 || first > source->size || memcmp(source->data + first - 4, "IDAT", 4) != 0) return 0;
  first -= 8;

  size_t offset = first, compressed_size = 0, idat_count = 0;
  uint32_t length = 0;
  while (source->size - offset >= 8 && memcmp(source->data + offset + 4, "IDAT", 4) == 0) {
    if (!chunk_is_whole(source, offset, &length)) return 0;
    compressed_size += length;
    idat_count++;
    offset += 12 + (size_t)length;
  }
  for (;;) {
    if (!chunk_is_whole(source, offset, &length)) return 0;
    const uint8_t *type = source->data + offset + 4;
    if (memcmp(type, "IEND", 4) == 0) {
      if (length != 0) return 0;
      break;
    }
    if (!(type[0] & 0x20)) return 0;  // a critical chunk after the image data: libpng's to judge
    offset += 12 + (size_t)length;
  }

  uint8_t *joined = NULL;
  const uint8_t *compressed = source->data + first + 8;
  if (idat_count > 1) {
    joined = malloc(compressed_size ? compressed_size : 1);
    if (!joined) return -1;
    size_t at = 0;
    for (size_t chunk = first; at < compressed_size;) {
      uint32_t size = be32(source->data + chunk);
      memcpy(joined + at, source->data + chunk + 8, size);
      at += size;
      chunk += 12 + (size_t)size;
    }
    compressed = joined;
  }
  // 16 spare bytes: the SSE2 Paeth loads whole 4-byte words at a row's last 3-byte pixel.
  uint8_t *pixels = malloc(inflated_size + 16);
  struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
  int result = pixels && inflater ? 0 : -1;
  if (result == 0 &&
      libdeflate_zlib_decompress(inflater, compressed, compressed_size, pixels, inflated_size, NULL) ==
          LIBDEFLATE_SUCCESS) {
    result = 1;
    const uint8_t *prev = NULL;
    for (png_uint_32 y = 0; y < height && result == 1; y++) {
      uint8_t *line = pixels + (size_t)y * stride;
      if (!unfilter_row(line[0], line + 1, prev, rowbytes, channels)) result = 0;
      prev = line + 1;
    }
    for (png_uint_32 y = 0; y < height && result == 1; y++) {
      row(context, pixels + (size_t)y * stride + 1, width, y, 0, 1);
    }
  }
  libdeflate_free_decompressor(inflater);
  free(pixels);
  free(joined);
  return result;
}

int thumbify_png_read_rows(const uint8_t *data, size_t size, void *context, thumbify_png_begin begin,
                           thumbify_png_row row, char *message, size_t message_size) {
  reader source = {data, size, 0, message, message_size, {0}};
  if (message_size > 0) message[0] = 0;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, on_error, on_warning);
  if (!png) return 0;
  png_infop info = png_create_info_struct(png);
  // Volatile: they change after setjmp and are read after a longjmp.
  png_bytep volatile buffer = NULL;
  volatile int result = 0;
  if (!info || setjmp(png_jmpbuf(png))) {
    free(buffer);
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    return result;
  }
  png_set_read_fn(png, &source, on_read);
  // A zlib bomb in iCCP, zTXt or iTXt is refused past this (libpng's default is 8 MB).
  png_set_chunk_malloc_max(png, 4u << 20);
  png_read_info(png, info);

  png_charp icc_name = NULL;
  int icc_compression = 0;
  png_bytep icc = NULL;
  png_uint_32 icc_length = 0;
  if (png_get_valid(png, info, PNG_INFO_sRGB) ||
      !png_get_iCCP(png, info, &icc_name, &icc_compression, &icc, &icc_length)) {
    icc = NULL;
    icc_length = 0;
  }
  int has_srgb = png_get_valid(png, info, PNG_INFO_sRGB) != 0;
  // An iCCP or cHRM that libpng refused (it keeps neither, and warned): reported, the image taken as
  // sRGB (gAMA still corrected). An sRGB chunk overrides both, so their damage does not matter then.
  const char *colour_warning = !has_srgb && !icc && source.colour_warning[0] ? source.colour_warning : NULL;

  // cHRM (with gAMA, or sRGB's curve without) describes an RGB space when there is neither an sRGB
  // chunk nor a profile; sRGB's own values are skipped, so the common file costs nothing more.
  int color_type = png_get_color_type(png, info);
  png_fixed_point xy[8];
  png_fixed_point file_gamma = 0;
  int has_chromaticities =
      !has_srgb && !icc && (color_type & PNG_COLOR_MASK_COLOR) &&
      png_get_cHRM_fixed(png, info, &xy[0], &xy[1], &xy[2], &xy[3], &xy[4], &xy[5], &xy[6], &xy[7]) &&
      !is_srgb_chromaticities(xy);
  if (has_chromaticities && !png_get_gAMA_fixed(png, info, &file_gamma)) file_gamma = 0;

  png_bytep exif = NULL;
  png_uint_32 exif_length = 0;
  if (!png_get_eXIf_1(png, info, &exif_length, &exif)) {
    exif = NULL;
    exif_length = 0;
  }

  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  int bit_depth = png_get_bit_depth(png, info);
  int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS);

  // As the simplified API: output sRGB with straight alpha, and a file without gAMA (16-bit ones too)
  // taken as sRGB, so only a declared other gamma is corrected.
  png_set_alpha_mode(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
  // The profile's own curves describe the samples: override any gAMA with the output's gamma,
  // which turns libpng's correction off.
  // The same when the caller converts from cHRM and gAMA.
  if (icc || has_chromaticities) png_set_gamma(png, PNG_DEFAULT_sRGB, PNG_DEFAULT_sRGB);
  if (bit_depth == 16) png_set_scale_16(png);
  png_set_expand(png);
  if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  // The rows are the file's samples as they are, so the whole-image path can take them: 8-bit RGB(A), no
  // tRNS, and no gamma correction (a profile or cHRM turned it off above, or the file's gamma is sRGB's
  // 1/2.2 within 1 %: libpng itself leaves anything within 5 % alone).
  png_fixed_point gamma = 0;
  int is_plain = !interlaced && bit_depth == 8 &&
                 (color_type == PNG_COLOR_TYPE_RGB || color_type == PNG_COLOR_TYPE_RGB_ALPHA) &&
                 !png_get_valid(png, info, PNG_INFO_tRNS) &&
                 (icc || has_chromaticities || !png_get_gAMA_fixed(png, info, &gamma) ||
                  (gamma >= 45000 && gamma <= 45910));

  int channels = png_get_channels(png, info);
  if (png_get_bit_depth(png, info) != 8 || channels != (has_alpha ? 4 : 3)) {
    png_error(png, "libpng did not reduce the image to 8-bit RGB or RGBA.");
  }
  thumbify_png_header header = {width, height, channels, interlaced, icc, icc_length, colour_warning,
                                has_chromaticities, {0}, file_gamma, exif, exif_length};
  if (has_chromaticities) memcpy(header.chromaticities, xy, sizeof xy);
  if (!begin(context, &header)) {
    result = -1;
    png_longjmp(png, 1);
  }
  if (is_plain) {
    int whole = read_whole_image(&source, width, height, channels, context, row);
    if (whole < 0) png_error(png, "Out of memory for a PNG image.");
    if (whole == 1) {
      png_destroy_read_struct(&png, &info, NULL);
      return 2;
    }
  }
  buffer = malloc(png_get_rowbytes(png, info));
  if (!buffer) png_error(png, "Out of memory for a PNG row.");
  if (!interlaced) {
    for (png_uint_32 y = 0; y < height; y++) {
      png_read_row(png, buffer, NULL);
      row(context, buffer, width, y, 0, 1);
    }
  } else {
    // Without png_set_interlace_handling libpng hands out each Adam7 pass's own rows, so no full-size
    // buffer is needed; the caller places the pixels.
    for (int pass = 0; pass < PNG_INTERLACE_ADAM7_PASSES; pass++) {
      png_uint_32 columns = PNG_PASS_COLS(width, pass);
      png_uint_32 rows = PNG_PASS_ROWS(height, pass);
      if (columns == 0) continue;
      for (png_uint_32 r = 0; r < rows; r++) {
        png_read_row(png, buffer, NULL);
        png_uint_32 y = PNG_PASS_START_ROW(pass) + (r << PNG_PASS_ROW_SHIFT(pass));
        row(context, buffer, columns, y, PNG_PASS_START_COL(pass), 1u << PNG_PASS_COL_SHIFT(pass));
      }
    }
  }
  png_read_end(png, NULL);
  free(buffer);
  png_destroy_read_struct(&png, &info, NULL);
  return 1;
}
