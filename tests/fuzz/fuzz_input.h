/*
 * The input reader of the X722 harnesses (fuzz_x722_*.c): bytes taken
 * from the front of libFuzzer's input, little-endian, zeros once it is
 * used up. (The E810 control-plane harnesses have theirs in
 * fuzz_arena.h, next to their E810Core arena.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct In {
    const uint8_t *p;
    size_t n;
} In;

static inline uint8_t take8(In *in)
{
    uint8_t v = 0;

    if (in->n) {
        v = *in->p++;
        in->n--;
    }
    return v;
}

static inline uint16_t take16(In *in)
{
    return take8(in) | take8(in) << 8;
}

static inline uint32_t take32(In *in)
{
    return take16(in) | (uint32_t)take16(in) << 16;
}

static inline uint64_t take64(In *in)
{
    return take32(in) | (uint64_t)take32(in) << 32;
}

/* Up to @want bytes into @out; how many there were. */
static inline size_t take_buf(In *in, uint8_t *out, size_t want)
{
    size_t n = in->n < want ? in->n : want;

    memcpy(out, in->p, n);
    in->p += n;
    in->n -= n;
    return n;
}

#endif /* FUZZ_INPUT_H */
