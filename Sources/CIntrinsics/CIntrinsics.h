// CPU instructions Swift cannot name, for the journal's checksums: SSE 4.2's
// crc32, which computes CRC-32C (Castagnoli) eight bytes per instruction.
// Static inline, compiled by the toolchain's clang where Swift calls them;
// the instruction is used only where cintrinsics_has_crc32c() says the CPU
// has it, so the build runs on any x86-64 and on other architectures.
#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

// Whether cintrinsics_crc32c may be called: 1 on a CPU with SSE 4.2.
static inline int cintrinsics_has_crc32c(void) {
#if defined(__x86_64__)
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
  return (ecx & bit_SSE4_2) != 0;
#else
  return 0;
#endif
}

// The CRC-32C register `crc` after `count` bytes at `data` (no initial or
// final inversion: the caller's). Only where cintrinsics_has_crc32c() is 1.
#if defined(__x86_64__)
__attribute__((target("sse4.2")))
#endif
static inline uint32_t cintrinsics_crc32c(uint32_t crc, const void *data, size_t count) {
#if defined(__x86_64__)
  const uint8_t *bytes = (const uint8_t *)data;
  uint64_t wide = crc;
  while (count >= 8) {
    uint64_t word;
    __builtin_memcpy(&word, bytes, 8);
    wide = __builtin_ia32_crc32di(wide, word);
    bytes += 8;
    count -= 8;
  }
  crc = (uint32_t)wide;
  while (count > 0) {
    crc = __builtin_ia32_crc32qi(crc, *bytes);
    bytes += 1;
    count -= 1;
  }
#endif
  return crc;
}
