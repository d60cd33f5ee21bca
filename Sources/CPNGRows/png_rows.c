#include "png_rows.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

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
