#include "colour_planes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define HAS_AVX2_PATH 1
#endif

// The matrix is evaluated as Swift's `MatrixShaperConversion.apply` evaluates it (a multiply and an add
// each, left to right), so that both give the same bytes: no fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// BT.601 chroma terms in 16.16 fixed point, rounded as Swift's `YCbCrImage.rgb()` tables are.
typedef struct {
  int32_t cr_r[256];
  int32_t cb_g[256];
  int32_t cr_g[256];
  int32_t cb_b[256];
} chroma_terms;

static void make_chroma_terms(chroma_terms *terms) {
  for (int c = 0; c < 256; c++) {
    double centred = (double)(c - 128);
    terms->cr_r[c] = (int32_t)lround(1.402 * 1.0 * centred * 65536);
    terms->cb_g[c] = (int32_t)lround(-0.344136 * 1.0 * centred * 65536);
    terms->cr_g[c] = (int32_t)lround(-0.714136 * 1.0 * centred * 65536);
    terms->cb_b[c] = (int32_t)lround(1.772 * 1.0 * centred * 65536);
  }
}

static inline int clamp_index(int value, int limit) { return value < limit ? value : limit; }

/// One row of per-pixel chroma for image row `row` (`count` ≥ width samples of `plane`'s upsampling).
static void upsample_row(const uint8_t *plane, int32_t width, int32_t chroma_width, int32_t chroma_height,
                         int32_t factor_x, int32_t factor_y, thumbify_chroma_upsampling upsampling, int32_t row,
                         uint8_t *out, int32_t *scratch) {
  int32_t j = clamp_index(row / factor_y, chroma_height - 1);
  const uint8_t *near = plane + (size_t)j * chroma_width;
  if (upsampling == THUMBIFY_CHROMA_NEAREST || (factor_x == 1 && factor_y == 1)) {
    if (factor_x == 1) {
      memcpy(out, near, (size_t)width);
    } else {
      for (int32_t i = 0; i < width / 2; i++) out[2 * i] = out[2 * i + 1] = near[i];
      if (width & 1) out[width - 1] = near[width / 2];
    }
    return;
  }
  if (factor_y == 2) {
    // libjpeg's h2v2 and h1v2: a column sum of 3/4 of the nearer chroma row and 1/4 of the further one
    // (the row above for an even image row, below for an odd one; the edges repeat).
    int32_t other = (row & 1) ? clamp_index(j + 1, chroma_height - 1) : (j > 0 ? j - 1 : 0);
    const uint8_t *far = plane + (size_t)other * chroma_width;
    if (factor_x == 1) {
      int32_t bias = (row & 1) ? 2 : 1;
      for (int32_t x = 0; x < width; x++) out[x] = (uint8_t)((3 * near[x] + far[x] + bias) >> 2);
      return;
    }
    // The column sums in 16 bits with the edge sample repeated on both sides, so the loop below has no
    // branch and the compiler vectorises it (each pair of output pixels from three neighbouring sums).
    uint16_t *sums = (uint16_t *)(void *)scratch + 1;
    for (int32_t i = 0; i < chroma_width; i++) sums[i] = (uint16_t)(3 * near[i] + far[i]);
    sums[-1] = sums[0];
    sums[chroma_width] = sums[chroma_width - 1];
    for (int32_t i = 0; i < width / 2; i++) {
      out[2 * i] = (uint8_t)((3 * sums[i] + sums[i - 1] + 8) >> 4);
      out[2 * i + 1] = (uint8_t)((3 * sums[i] + sums[i + 1] + 7) >> 4);
    }
    if (width & 1) {
      int32_t i = width / 2;
      out[width - 1] = (uint8_t)((3 * sums[i] + sums[i - 1] + 8) >> 4);
    }
    return;
  }
  // h2v1: 3/4 of the nearer sample and 1/4 of the further one in the row.
  for (int32_t x = 0; x < width; x++) {
    int32_t i = x >> 1;
    int32_t side = (x & 1) ? clamp_index(i + 1, chroma_width - 1) : (i > 0 ? i - 1 : 0);
    out[x] = (uint8_t)((3 * near[i] + near[side] + ((x & 1) ? 2 : 1)) >> 2);
  }
}

static inline uint8_t clamp_sample(int32_t value) {
  value >>= 16;
  return (uint8_t)(value < 0 ? 0 : (value > 255 ? 255 : value));
}

/// The linear light of one converted channel → its index in the encode table: clipped to 0…1 (NaN, from a
/// hostile profile's curve, becomes 0), scaled, rounded by truncating x + 0.5 as Swift's `Int(_:)` does.
static inline int32_t encode_index(float light, float scale) {
  float clipped = light > 0 ? (light < 1 ? light : 1) : 0;
  return (int32_t)(clipped * scale + 0.5f);
}

/// One pixel of ``convert_row``: the portable path, and the SSE2 path's last few pixels of a row.
static inline void convert_pixel(const thumbify_matrix_shaper *conversion, const chroma_terms *terms, uint8_t y,
                                 uint8_t cb, uint8_t cr, uint8_t *out_y, uint8_t *out_r, uint8_t *out_g,
                                 uint8_t *out_b) {
  const float *linear = conversion->linear;
  const float *m = conversion->matrix;
  const float scale = (float)(conversion->encode_steps - 1);
  int32_t base = y * 65536 + 32768;
  float r = linear[clamp_sample(base + terms->cr_r[cr])];
  float g = linear[256 + clamp_sample(base + terms->cb_g[cb] + terms->cr_g[cr])];
  float b = linear[512 + clamp_sample(base + terms->cb_b[cb])];
  uint8_t r2 = conversion->encode[encode_index(m[0] * r + m[3] * g + m[6] * b, scale)];
  uint8_t g2 = conversion->encode[encode_index(m[1] * r + m[4] * g + m[7] * b, scale)];
  uint8_t b2 = conversion->encode[encode_index(m[2] * r + m[5] * g + m[8] * b, scale)];
  *out_r = r2;
  *out_g = g2;
  *out_b = b2;
  *out_y = (uint8_t)((4899 * r2 + 9617 * g2 + 1868 * b2 + 8192) >> 14);
}

#if HAS_AVX2_PATH
/// Eight table entries at eight indices, as one vector (scalar loads: AVX2's gathers were no faster on
/// the machine measured, Zen 4, and would read past the encode table's end).
#define LOOKUP8(set, table, index)                                                                           \
  set((table)[(index)[0]], (table)[(index)[1]], (table)[(index)[2]], (table)[(index)[3]], (table)[(index)[4]], \
      (table)[(index)[5]], (table)[(index)[6]], (table)[(index)[7]])

/// ``convert_row``'s eight-pixel steps with AVX2 (chosen at run time): the arithmetic eight lanes wide, the
/// lookups scalar; the same operations in the same order (no fused multiply-adds), so the same bytes as
/// the SSE2 and scalar paths. Returns how many pixels it did.
///
/// `pair_cb` and `pair_cr`, when not NULL, are the row's chroma samples with each covering two pixels (nearest
/// chroma, 4:2:x): their terms are then looked up once for both pixels.
__attribute__((target("avx2"))) static int32_t convert_row_avx2(
    const thumbify_matrix_shaper *conversion, const chroma_terms *terms, const uint8_t *y, const uint8_t *cb,
    const uint8_t *cr, const uint8_t *pair_cb, const uint8_t *pair_cr, int32_t width, uint8_t *out_y,
    uint8_t *out_r, uint8_t *out_g, uint8_t *out_b) {
  const float *linear = conversion->linear;
  const uint8_t *encode = conversion->encode;
  const __m256 m0 = _mm256_set1_ps(conversion->matrix[0]), m1 = _mm256_set1_ps(conversion->matrix[1]);
  const __m256 m2 = _mm256_set1_ps(conversion->matrix[2]), m3 = _mm256_set1_ps(conversion->matrix[3]);
  const __m256 m4 = _mm256_set1_ps(conversion->matrix[4]), m5 = _mm256_set1_ps(conversion->matrix[5]);
  const __m256 m6 = _mm256_set1_ps(conversion->matrix[6]), m7 = _mm256_set1_ps(conversion->matrix[7]);
  const __m256 m8 = _mm256_set1_ps(conversion->matrix[8]);
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), half = _mm256_set1_ps(0.5f);
  const __m256 scale = _mm256_set1_ps((float)(conversion->encode_steps - 1));
  const __m256i rounding = _mm256_set1_epi32(32768), black = _mm256_setzero_si256();
  const __m256i white = _mm256_set1_epi32(255);
  int32_t x = 0;
  for (; x + 8 <= width; x += 8) {
    const uint8_t *b8 = cb + x, *r8 = cr + x;
    __m256i base = _mm256_add_epi32(
        _mm256_slli_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(y + x))), 16),
        rounding);
    __m256i red_terms, green_terms, blue_terms;
    if (pair_cb) {
      // Four samples' terms, each spread over its two pixels.
      const uint8_t *b4 = pair_cb + x / 2, *r4 = pair_cr + x / 2;
      const __m256i spread = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
#define LOOKUP4(table, index)                                                                                  \
  _mm256_permutevar8x32_epi32(                                                                                 \
      _mm256_castsi128_si256(_mm_setr_epi32((table)[(index)[0]], (table)[(index)[1]], (table)[(index)[2]],    \
                                            (table)[(index)[3]])),                                          \
      spread)
      red_terms = LOOKUP4(terms->cr_r, r4);
      green_terms = _mm256_add_epi32(LOOKUP4(terms->cb_g, b4), LOOKUP4(terms->cr_g, r4));
      blue_terms = LOOKUP4(terms->cb_b, b4);
#undef LOOKUP4
    } else {
      red_terms = LOOKUP8(_mm256_setr_epi32, terms->cr_r, r8);
      green_terms = _mm256_add_epi32(LOOKUP8(_mm256_setr_epi32, terms->cb_g, b8),
                                     LOOKUP8(_mm256_setr_epi32, terms->cr_g, r8));
      blue_terms = LOOKUP8(_mm256_setr_epi32, terms->cb_b, b8);
    }
    _Alignas(32) int32_t rgb[3][8];
#define CLAMPED(terms) _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(_mm256_add_epi32(base, terms), 16), black), white)
    _mm256_store_si256((__m256i *)(void *)rgb[0], CLAMPED(red_terms));
    _mm256_store_si256((__m256i *)(void *)rgb[1], CLAMPED(green_terms));
    _mm256_store_si256((__m256i *)(void *)rgb[2], CLAMPED(blue_terms));
#undef CLAMPED
    __m256 r = LOOKUP8(_mm256_setr_ps, linear, rgb[0]);
    __m256 g = LOOKUP8(_mm256_setr_ps, linear + 256, rgb[1]);
    __m256 b = LOOKUP8(_mm256_setr_ps, linear + 512, rgb[2]);
    _Alignas(32) int32_t index[3][8];
    // max(·, 0) first: it returns 0 for NaN (its second operand), as the scalar clip does.
#define INDEX(a, b2, c)                                                                                        \
  _mm256_cvttps_epi32(_mm256_add_ps(                                                                          \
      _mm256_mul_ps(                                                                                           \
          _mm256_min_ps(                                                                                       \
              _mm256_max_ps(                                                                                   \
                  _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a, r), _mm256_mul_ps(b2, g)), _mm256_mul_ps(c, b)), \
                  zero),                                                                                       \
              one),                                                                                            \
          scale),                                                                                              \
      half))
    _mm256_store_si256((__m256i *)(void *)index[0], INDEX(m0, m3, m6));
    _mm256_store_si256((__m256i *)(void *)index[1], INDEX(m1, m4, m7));
    _mm256_store_si256((__m256i *)(void *)index[2], INDEX(m2, m5, m8));
#undef INDEX
    __m256i r2 = LOOKUP8(_mm256_setr_epi32, encode, index[0]);
    __m256i g2 = LOOKUP8(_mm256_setr_epi32, encode, index[1]);
    __m256i b2 = LOOKUP8(_mm256_setr_epi32, encode, index[2]);
    __m256i luma = _mm256_srai_epi32(
        _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(r2, _mm256_set1_epi32(4899)),
                                          _mm256_mullo_epi32(g2, _mm256_set1_epi32(9617))),
                         _mm256_add_epi32(_mm256_mullo_epi32(b2, _mm256_set1_epi32(1868)), _mm256_set1_epi32(8192))),
        14);
    // Eight 32-bit lanes → eight bytes: to 16 bits across the two 128-bit halves, then to 8 bits.
#define STORE8(v, out)                                                                                        \
  do {                                                                                                       \
    __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));              \
    _mm_storel_epi64((__m128i *)(void *)(out), _mm_packus_epi16(words, words));                              \
  } while (0)
    STORE8(r2, out_r + x);
    STORE8(g2, out_g + x);
    STORE8(b2, out_b + x);
    STORE8(luma, out_y + x);
#undef STORE8
  }
  return x;
}
#undef LOOKUP8
#endif

/// One image row: Y′CbCr with per-pixel chroma → RGB → converted; writes Y′ and the converted R, G, B.
///
/// SSE2 (x86-64's baseline) eight pixels a step: the arithmetic in vectors, the table lookups as scalar
/// loads (SSE2 has no gather); the same operations in the same order as ``convert_pixel``, so the same bytes.
static void convert_row(const thumbify_matrix_shaper *conversion, const chroma_terms *terms, int isa,
                        const uint8_t *y, const uint8_t *cb, const uint8_t *cr, const uint8_t *pair_cb,
                        const uint8_t *pair_cr, int32_t width, uint8_t *out_y, uint8_t *out_r, uint8_t *out_g,
                        uint8_t *out_b) {
  int32_t x = 0;
  (void)isa;  // no vector path without SSE2
#if HAS_AVX2_PATH
  if (isa >= 2) {
    x = convert_row_avx2(conversion, terms, y, cb, cr, pair_cb, pair_cr, width, out_y, out_r, out_g, out_b);
  }
#else
  (void)pair_cb;
  (void)pair_cr;
#endif
#if defined(__SSE2__)
  const float *linear = conversion->linear;
  const uint8_t *encode = conversion->encode;
  const __m128 m0 = _mm_set1_ps(conversion->matrix[0]), m1 = _mm_set1_ps(conversion->matrix[1]);
  const __m128 m2 = _mm_set1_ps(conversion->matrix[2]), m3 = _mm_set1_ps(conversion->matrix[3]);
  const __m128 m4 = _mm_set1_ps(conversion->matrix[4]), m5 = _mm_set1_ps(conversion->matrix[5]);
  const __m128 m6 = _mm_set1_ps(conversion->matrix[6]), m7 = _mm_set1_ps(conversion->matrix[7]);
  const __m128 m8 = _mm_set1_ps(conversion->matrix[8]);
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1), half = _mm_set1_ps(0.5f);
  const __m128 scale = _mm_set1_ps((float)(conversion->encode_steps - 1));
  const __m128i rounding = _mm_set1_epi32(32768), zeroes = _mm_setzero_si128();
  const __m128i luma_rg = _mm_set_epi16(9617, 4899, 9617, 4899, 9617, 4899, 9617, 4899);
  const __m128i luma_b1 = _mm_set_epi16(8192, 1868, 8192, 1868, 8192, 1868, 8192, 1868);
  const __m128i ones = _mm_set1_epi16(1);
  for (; isa >= 1 && x + 8 <= width; x += 8) {
    // Built in registers, not stored lane by lane and loaded whole: that load would wait for the stores.
    __m128i tr[2], tg[2], tb[2];
    for (int h = 0; h < 2; h++) {
      const uint8_t *b = cb + x + 4 * h, *r = cr + x + 4 * h;
      tr[h] = _mm_setr_epi32(terms->cr_r[r[0]], terms->cr_r[r[1]], terms->cr_r[r[2]], terms->cr_r[r[3]]);
      tg[h] = _mm_setr_epi32(terms->cb_g[b[0]] + terms->cr_g[r[0]], terms->cb_g[b[1]] + terms->cr_g[r[1]],
                             terms->cb_g[b[2]] + terms->cr_g[r[2]], terms->cb_g[b[3]] + terms->cr_g[r[3]]);
      tb[h] = _mm_setr_epi32(terms->cb_b[b[0]], terms->cb_b[b[1]], terms->cb_b[b[2]], terms->cb_b[b[3]]);
    }
    __m128i luma = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(y + x)), zeroes);
    __m128i base_lo = _mm_add_epi32(_mm_slli_epi32(_mm_unpacklo_epi16(luma, zeroes), 16), rounding);
    __m128i base_hi = _mm_add_epi32(_mm_slli_epi32(_mm_unpackhi_epi16(luma, zeroes), 16), rounding);
#define CHANNEL(t)                                                                                           \
  _mm_packus_epi16(_mm_packs_epi32(_mm_srai_epi32(_mm_add_epi32(base_lo, (t)[0]), 16),                          \
                                   _mm_srai_epi32(_mm_add_epi32(base_hi, (t)[1]), 16)),                         \
                   zeroes)
    // RGB clamped to 0…255 by the saturating packs: 8 bytes each.
    _Alignas(16) uint8_t rgb[3][16];
    _mm_store_si128((__m128i *)(void *)rgb[0], CHANNEL(tr));
    _mm_store_si128((__m128i *)(void *)rgb[1], CHANNEL(tg));
    _mm_store_si128((__m128i *)(void *)rgb[2], CHANNEL(tb));
#undef CHANNEL
    _Alignas(16) float light[3][8];
    for (int k = 0; k < 8; k++) {
      light[0][k] = linear[rgb[0][k]];
      light[1][k] = linear[256 + rgb[1][k]];
      light[2][k] = linear[512 + rgb[2][k]];
    }
    _Alignas(16) int32_t index[3][8];
    for (int h = 0; h < 8; h += 4) {
      __m128 r = _mm_load_ps(light[0] + h), g = _mm_load_ps(light[1] + h), b = _mm_load_ps(light[2] + h);
      // max(·, 0) first: it returns 0 for NaN (its second operand), as the scalar clip does.
#define INDEX(a, b2, c)                                                                                       \
  _mm_cvttps_epi32(_mm_add_ps(                                                                               \
      _mm_mul_ps(                                                                                             \
          _mm_min_ps(_mm_max_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(a, r), _mm_mul_ps(b2, g)), _mm_mul_ps(c, b)), \
                                zero),                                                                        \
                     one),                                                                                    \
          scale),                                                                                             \
      half))
      _mm_store_si128((__m128i *)(void *)(index[0] + h), INDEX(m0, m3, m6));
      _mm_store_si128((__m128i *)(void *)(index[1] + h), INDEX(m1, m4, m7));
      _mm_store_si128((__m128i *)(void *)(index[2] + h), INDEX(m2, m5, m8));
#undef INDEX
    }
    for (int k = 0; k < 8; k++) {
      out_r[x + k] = encode[index[0][k]];
      out_g[x + k] = encode[index[1][k]];
      out_b[x + k] = encode[index[2][k]];
    }
    // Y′ = (4899 R + 9617 G + 1868 B + 8192) >> 14 as two pmaddwd: (R, G)·(4899, 9617) and (B, 1)·(1868, 8192).
    __m128i r8 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(out_r + x)), zeroes);
    __m128i g8 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(out_g + x)), zeroes);
    __m128i b8 = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(out_b + x)), zeroes);
    __m128i lo = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(r8, g8), luma_rg),
                               _mm_madd_epi16(_mm_unpacklo_epi16(b8, ones), luma_b1));
    __m128i hi = _mm_add_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(r8, g8), luma_rg),
                               _mm_madd_epi16(_mm_unpackhi_epi16(b8, ones), luma_b1));
    __m128i luma_out = _mm_packs_epi32(_mm_srai_epi32(lo, 14), _mm_srai_epi32(hi, 14));
    _mm_storel_epi64((__m128i *)(void *)(out_y + x), _mm_packus_epi16(luma_out, zeroes));
  }
#endif
  for (; x < width; x++) {
    convert_pixel(conversion, terms, y[x], cb[x], cr[x], out_y + x, out_r + x, out_g + x, out_b + x);
  }
}

/// One row of Y′ in sixteenths of a level (0…4080), from the converted R, G, B: a plain loop the
/// compiler vectorises; the same values at every instruction set.
static void luma_sixteenths_row(uint8_t *const rgb[3], int32_t width, int16_t *out) {
  const uint8_t *r = rgb[0], *g = rgb[1], *b = rgb[2];
  for (int32_t x = 0; x < width; x++) {
    out[x] = (int16_t)((4899 * r[x] + 9617 * g[x] + 1868 * b[x] + 512) >> 10);
  }
}

/// One row of Cb and Cr from two converted rows: each 2×2 block's mean, as `YCbCrImage(fullRange:)`.
static void chroma_row(const uint8_t *const top[3], const uint8_t *const bottom[3], int32_t width, int isa,
                       uint8_t *out_cb, uint8_t *out_cr) {
  (void)isa;  // no vector path without SSE2
  int32_t pairs = width / 2;
  int32_t i = 0;
#if defined(__SSE2__)
  // Eight blocks a step: each channel's 2×2 sums in 16 bits, then both chroma dot products as pmaddwd on
  // (R, G) and (B, 1) pairs, as the scalar lines below compute them.
  const __m128i zeroes = _mm_setzero_si128(), low_words = _mm_set1_epi32(0xFFFF);
  const __m128i blue_rg = _mm_set_epi16(-5427, -2765, -5427, -2765, -5427, -2765, -5427, -2765);
  const __m128i blue_b1 = _mm_set_epi16(32767, 8192, 32767, 8192, 32767, 8192, 32767, 8192);
  const __m128i red_rg = _mm_set_epi16(-6860, 8192, -6860, 8192, -6860, 8192, -6860, 8192);
  const __m128i red_b1 = _mm_set_epi16(32767, -1332, 32767, -1332, 32767, -1332, 32767, -1332);
  const __m128i ones = _mm_set1_epi16(1), offset = _mm_set1_epi32(128);
  for (; isa >= 1 && i + 8 <= pairs; i += 8) {
    __m128i sums[3];
    for (int c = 0; c < 3; c++) {
      __m128i upper = _mm_loadu_si128((const __m128i *)(const void *)(top[c] + 2 * i));
      __m128i lower = _mm_loadu_si128((const __m128i *)(const void *)(bottom[c] + 2 * i));
      __m128i lo = _mm_add_epi16(_mm_unpacklo_epi8(upper, zeroes), _mm_unpacklo_epi8(lower, zeroes));
      __m128i hi = _mm_add_epi16(_mm_unpackhi_epi8(upper, zeroes), _mm_unpackhi_epi8(lower, zeroes));
      // Adjacent columns added: each 32-bit lane's two words summed, then packed back to eight words.
      lo = _mm_add_epi32(_mm_and_si128(lo, low_words), _mm_srli_epi32(lo, 16));
      hi = _mm_add_epi32(_mm_and_si128(hi, low_words), _mm_srli_epi32(hi, 16));
      sums[c] = _mm_packs_epi32(lo, hi);
    }
    __m128i rg_lo = _mm_unpacklo_epi16(sums[0], sums[1]), rg_hi = _mm_unpackhi_epi16(sums[0], sums[1]);
    __m128i b1_lo = _mm_unpacklo_epi16(sums[2], ones), b1_hi = _mm_unpackhi_epi16(sums[2], ones);
#define CHROMA(rg, b1)                                                                                        \
  _mm_packs_epi32(                                                                                           \
      _mm_add_epi32(_mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(rg_lo, rg), _mm_madd_epi16(b1_lo, b1)), 16), \
                    offset),                                                                                 \
      _mm_add_epi32(_mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(rg_hi, rg), _mm_madd_epi16(b1_hi, b1)), 16), \
                    offset))
    __m128i cb = CHROMA(blue_rg, blue_b1), cr = CHROMA(red_rg, red_b1);
#undef CHROMA
    _mm_storel_epi64((__m128i *)(void *)(out_cb + i), _mm_packus_epi16(cb, cb));
    _mm_storel_epi64((__m128i *)(void *)(out_cr + i), _mm_packus_epi16(cr, cr));
  }
#endif
  for (; i < pairs; i++) {
    int32_t r = top[0][2 * i] + top[0][2 * i + 1] + bottom[0][2 * i] + bottom[0][2 * i + 1];
    int32_t g = top[1][2 * i] + top[1][2 * i + 1] + bottom[1][2 * i] + bottom[1][2 * i + 1];
    int32_t b = top[2][2 * i] + top[2][2 * i + 1] + bottom[2][2 * i] + bottom[2][2 * i + 1];
    out_cb[i] = (uint8_t)((((-2765 * r - 5427 * g + 8192 * b) + 32767) >> 16) + 128);
    out_cr[i] = (uint8_t)((((8192 * r - 6860 * g - 1332 * b) + 32767) >> 16) + 128);
  }
  if (width & 1) {  // the last column counts twice
    int32_t x = width - 1;
    int32_t r = 2 * (top[0][x] + bottom[0][x]);
    int32_t g = 2 * (top[1][x] + bottom[1][x]);
    int32_t b = 2 * (top[2][x] + bottom[2][x]);
    out_cb[pairs] = (uint8_t)((((-2765 * r - 5427 * g + 8192 * b) + 32767) >> 16) + 128);
    out_cr[pairs] = (uint8_t)((((8192 * r - 6860 * g - 1332 * b) + 32767) >> 16) + 128);
  }
}


int thumbify_convert_planes(const thumbify_matrix_shaper *conversion, const uint8_t *y, const uint8_t *cb,
                            const uint8_t *cr, int32_t width, int32_t height, int32_t chroma_width,
                            int32_t chroma_height, int32_t factor_x, int32_t factor_y,
                            thumbify_chroma_upsampling upsampling, int32_t widest_isa, uint8_t *out_y,
                            int16_t *out_y_sixteenths, uint8_t *out_cb, uint8_t *out_cr) {
  if (width <= 0 || height <= 0 || factor_x < 1 || factor_x > 2 || factor_y < 1 || factor_y > 2) return 0;
  if (chroma_width != (width + factor_x - 1) / factor_x || chroma_height != (height + factor_y - 1) / factor_y)
    return 0;
  if (conversion->encode_steps < 2) return 0;
  chroma_terms terms;
  make_chroma_terms(&terms);
  int isa = widest_isa;
#if HAS_AVX2_PATH
  if (isa >= 2 && !__builtin_cpu_supports("avx2")) isa = 1;
#else
  if (isa >= 2) isa = 1;
#endif
  size_t w = (size_t)width;
  // Per row pair: the two rows' chroma (Cb, Cr), their converted R, G and B, and a triangle's column sums.
  uint8_t *buffer = malloc(10 * w + sizeof(int32_t) * ((size_t)chroma_width + 1));
  if (!buffer) return 0;
  uint8_t *cb_rows[2] = {buffer, buffer + w};
  uint8_t *cr_rows[2] = {buffer + 2 * w, buffer + 3 * w};
  uint8_t *rgb_rows[2][3] = {{buffer + 4 * w, buffer + 5 * w, buffer + 6 * w},
                             {buffer + 7 * w, buffer + 8 * w, buffer + 9 * w}};
  int32_t *scratch = (int32_t *)(void *)(buffer + 10 * w);
  int32_t blocks = (width + 1) / 2;
  for (int32_t j = 0; j < (height + 1) / 2; j++) {
    int32_t rows = 2 * j + 1 < height ? 2 : 1;  // an odd height's last row counts twice
    for (int32_t half = 0; half < rows; half++) {
      int32_t row = 2 * j + half;
      upsample_row(cb, width, chroma_width, chroma_height, factor_x, factor_y, upsampling, row, cb_rows[half],
                   scratch);
      upsample_row(cr, width, chroma_width, chroma_height, factor_x, factor_y, upsampling, row, cr_rows[half],
                   scratch);
      // Nearest chroma two pixels wide: the AVX2 code looks each sample's terms up once for both.
      int paired = (upsampling == THUMBIFY_CHROMA_NEAREST && factor_x == 2);
      size_t chroma_row_start = (size_t)(row / factor_y < chroma_height ? row / factor_y : chroma_height - 1) *
                                (size_t)chroma_width;
      convert_row(conversion, &terms, isa, y + (size_t)row * w, cb_rows[half], cr_rows[half],
                  paired ? cb + chroma_row_start : NULL, paired ? cr + chroma_row_start : NULL, width,
                  out_y + (size_t)row * w, rgb_rows[half][0], rgb_rows[half][1], rgb_rows[half][2]);
      if (out_y_sixteenths) luma_sixteenths_row(rgb_rows[half], width, out_y_sixteenths + (size_t)row * w);
    }
    const uint8_t *const top[3] = {rgb_rows[0][0], rgb_rows[0][1], rgb_rows[0][2]};
    const uint8_t *const bottom[3] = {rgb_rows[rows - 1][0], rgb_rows[rows - 1][1], rgb_rows[rows - 1][2]};
    chroma_row(top, bottom, width, isa, out_cb + (size_t)j * blocks, out_cr + (size_t)j * blocks);
  }
  free(buffer);
  return 1;
}
