/* A cycle estimate for Thumb-2 code on a Cortex-M4 with zero wait states, from the
 * instruction timings of the Cortex-M4 Technical Reference Manual (r0p1, section 3.3,
 * Table 3-1 "Processor instruction set summary", and 3.3.2 "Load/store timings"; the
 * FPU's Table 7-1 for the floating-point instructions). Shared by the QEMU plugins
 * cycles.c (the measured window) and opcount.c (per operator).
 *
 * The model, per executed instruction:
 *   - data processing, moves, shifts, compares, IT, saturation, packing, SXTB16 and the
 *     other DSP extends, every multiply and multiply-accumulate (MUL, MLA, MLS, SMULL,
 *     SMLAL, SMLAD, SMLALD, SMLABB, ...): 1.
 *   - SDIV/UDIV: 2 to 12 by the operands (early termination), which a translation-time
 *     model cannot see: counted as M4_DIV_CYCLES (12, the bound).
 *   - single loads (LDR, LDRB, LDRH, LDRSB, LDRSH, literal loads; VLDR): 2, or 1 when the
 *     previous instruction was a single load (a neighbouring load pipelines its address
 *     phase into the previous one's data phase) whose destination is neither this load's
 *     base nor its offset register (3.3.2: "LDR R0,[R1]; LDR R3,[R0]" does not pipeline).
 *   - single stores: STR/STRB/STRH with an immediate offset 1 (the data phase overlaps the
 *     next instruction; nothing pipelines after a store), with a register offset 2;
 *     VSTR 2.
 *   - LDRD, STRD: 1 + N with N = 2. LDM, STM, PUSH, POP: 1 + N (N registers).
 *     VLDM, VSTM, VPUSH, VPOP: 1 + N (N words).
 *   - branches: 1 + P when taken (B, BL, BX, BLX, CBZ/CBNZ and B<cc> when taken, POP or
 *     LDM with PC, LDR to PC (2 + P), MOV/ADD to PC, TBB/TBH (2 + P)); a conditional branch
 *     not taken: its base cost only. P (pipeline refill) is 1 to 3 cycles by the target's
 *     alignment and width and whether the core speculated the target early: counted as
 *     M4_REFILL_CYCLES (2). Whether a branch was taken is seen at run time: the plugin
 *     compares the next translation block's first address with the branch's fall-through.
 *   - FPU: VADD, VSUB, VMUL, VNMUL, VABS, VNEG, VCMP, VCVT, VMOV, VMRS: 1; VMLA, VMLS,
 *     VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS: 3; VDIV, VSQRT: 14.
 * Not modelled: flash wait states (none by definition), unaligned word/halfword accesses
 * (the bus splits them: a cycle more each; the plugin cannot see addresses at translation),
 * literal-pool fetch contention (LDR [PC]: "might add a cycle"), the FPU's and the
 * multiplier's result latencies into a dependent instruction, write-buffer stalls, and
 * instructions skipped by an IT block (counted at their nominal cost; the core spends 1).
 * The estimate is a model, not a measurement: use it to compare two builds of the same
 * code, not as a board's cycle count. */
#ifndef TFLC_M4TIMING_H
#define TFLC_M4TIMING_H

#include <stddef.h>
#include <stdint.h>

#define M4_REFILL_CYCLES 2
#define M4_DIV_CYCLES 12

/* What one instruction leaves for the next one's pipelining rule. */
struct m4_prev {
    int load;  /* it was a single load */
    int dest;  /* its destination register (-1: none) */
};

struct m4_cost {
    unsigned cycles; /* without a taken branch's refill */
    int flow;        /* may write the PC: add M4_REFILL_CYCLES when it does */
};

static int m4_popcount(unsigned v) {
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

/* A single load of `rt` based on `rn` (and register offset `rm`, -1 if none): 2 cycles,
 * 1 when it pipelines behind the previous single load. */
static unsigned m4_load(struct m4_prev *prev, int rt, int rn, int rm) {
    unsigned c = 2;
    if (prev->load && prev->dest != rn && (rm < 0 || prev->dest != rm)) c = 1;
    prev->load = 1;
    prev->dest = rt;
    return c;
}

/* Cost of the Thumb instruction at `p` (`size` 2 or 4 bytes, little-endian halfwords),
 * given what the previous instruction of the same straight-line block was (`prev`, updated
 * for the next one; a new block starts with {0, -1}). */
static struct m4_cost m4_cost(const uint8_t *p, size_t size, struct m4_prev *prev) {
    struct m4_cost r = {1, 0};
    unsigned hw1 = (unsigned)p[0] | (unsigned)p[1] << 8;
    struct m4_prev q = *prev; /* the previous instruction; m4_load makes it this one */
    prev->load = 0;
    prev->dest = -1;
    if (size == 2) {
        if ((hw1 & 0xF800) == 0x4800) { /* LDR (literal) */
            r.cycles = m4_load(&q, (int)((hw1 >> 8) & 7), 15, -1);
            *prev = q;
        } else if ((hw1 & 0xF000) == 0x5000) { /* load/store, register offset */
            int rt = (int)(hw1 & 7), rn = (int)((hw1 >> 3) & 7), rm = (int)((hw1 >> 6) & 7);
            if (((hw1 >> 9) & 7) >= 3) {
                r.cycles = m4_load(&q, rt, rn, rm);
                *prev = q;
            } else {
                r.cycles = 2;
            }
        } else if ((hw1 & 0xE000) == 0x6000 || (hw1 & 0xF000) == 0x8000) { /* LDR/STR(B/H) imm */
            int rt = (int)(hw1 & 7), rn = (int)((hw1 >> 3) & 7);
            if (hw1 & 0x0800) {
                r.cycles = m4_load(&q, rt, rn, -1);
                *prev = q;
            }
        } else if ((hw1 & 0xF000) == 0x9000) { /* LDR/STR SP-relative */
            if (hw1 & 0x0800) {
                r.cycles = m4_load(&q, (int)((hw1 >> 8) & 7), 13, -1);
                *prev = q;
            }
        } else if ((hw1 & 0xFE00) == 0xBC00) { /* POP */
            r.cycles = 1 + (unsigned)m4_popcount(hw1 & 0x1FF);
            r.flow = (hw1 & 0x100) != 0;
        } else if ((hw1 & 0xFE00) == 0xB400) { /* PUSH */
            r.cycles = 1 + (unsigned)m4_popcount(hw1 & 0x1FF);
        } else if ((hw1 & 0xF000) == 0xC000) { /* STM / LDM */
            r.cycles = 1 + (unsigned)m4_popcount(hw1 & 0xFF);
        } else if ((hw1 & 0xF000) == 0xD000) { /* B<cc>, UDF, SVC */
            r.flow = ((hw1 >> 8) & 0xF) < 0xE;
        } else if ((hw1 & 0xF800) == 0xE000) { /* B */
            r.flow = 1;
        } else if ((hw1 & 0xF500) == 0xB100) { /* CBZ, CBNZ */
            r.flow = 1;
        } else if ((hw1 & 0xFF00) == 0x4700) { /* BX, BLX */
            r.flow = 1;
        } else if ((hw1 & 0xFD00) == 0x4400) { /* ADD/MOV (high registers) */
            r.flow = ((hw1 & 7) | ((hw1 >> 4) & 8)) == 15;
        }
        return r;
    }
    unsigned hw2 = (unsigned)p[2] | (unsigned)p[3] << 8;
    if ((hw1 & 0xFE40) == 0xE800) { /* LDM / STM (32-bit) */
        r.cycles = 1 + (unsigned)m4_popcount(hw2);
        r.flow = (hw1 & 0x10) && (hw2 & 0x8000);
    } else if ((hw1 & 0xFE40) == 0xE840) { /* LDRD/STRD, exclusives, TBB/TBH */
        int pbit = (hw1 >> 8) & 1, wbit = (hw1 >> 5) & 1;
        if (pbit || wbit) {
            r.cycles = 3;
        } else if ((hw1 & 0xFFF0) == 0xE8D0 && (hw2 & 0xFFE0) == 0xF000) {
            r.cycles = 2;
            r.flow = 1;
        } else {
            r.cycles = 2;
        }
    } else if ((hw1 & 0xFE00) == 0xF800) { /* single load/store (32-bit) */
        int rn = (int)(hw1 & 0xF), rt = (int)(hw2 >> 12);
        int load = (hw1 >> 4) & 1, word = ((hw1 >> 5) & 3) == 2;
        int reg_offset = !(hw1 & 0x80) && rn != 15 && (hw2 & 0x0FC0) == 0;
        if (!load) {
            r.cycles = reg_offset ? 2 : 1;
        } else if (rt == 15 && word) { /* LDR PC */
            r.cycles = 2;
            r.flow = 1;
        } else if (rt == 15) { /* PLD, PLI */
            r.cycles = 1;
        } else {
            r.cycles = m4_load(&q, rt, rn, reg_offset ? (int)(hw2 & 0xF) : -1);
            *prev = q;
        }
    } else if ((hw1 & 0xFF80) == 0xFB80) { /* long multiply, divide */
        unsigned op1 = (hw1 >> 4) & 7;
        if (op1 == 1 || op1 == 3) r.cycles = M4_DIV_CYCLES;
    } else if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0x8000)) { /* branches, misc control */
        if (hw2 & 0x5000) {
            r.flow = 1; /* B.W, BL */
        } else {
            r.flow = ((hw1 >> 6) & 0xF) < 0xE; /* B<cc>.W; else MSR/MRS/hints/barriers */
        }
    } else if ((hw1 & 0xEC00) == 0xEC00 && ((hw2 >> 9) & 7) == 5) { /* FPU (cp10, cp11) */
        if ((hw1 & 0xEE00) == 0xEC00) { /* extension register load/store */
            int pbit = (hw1 >> 8) & 1, ubit = (hw1 >> 7) & 1, wbit = (hw1 >> 5) & 1;
            if (pbit && !wbit) { /* VLDR, VSTR */
                if (hw1 & 0x10) {
                        r.cycles = m4_load(&q, -1, (int)(hw1 & 0xF), -1);
                    *prev = q;
                } else {
                    r.cycles = 2;
                }
            } else if (!pbit && !ubit && !wbit) { /* VMOV to/from two core registers */
                r.cycles = 1;
            } else { /* VLDM, VSTM, VPUSH, VPOP */
                r.cycles = 1 + (hw2 & 0xFF);
            }
        } else if ((hw1 & 0xEF00) == 0xEE00 && !(hw2 & 0x10)) { /* data processing */
            unsigned opc1 = (hw1 >> 4) & 0xB;
            unsigned opc2 = hw1 & 0xF, opc3 = (hw2 >> 6) & 3;
            if (opc1 == 0x0 || opc1 == 0x1 || opc1 == 0x9 || opc1 == 0xA) r.cycles = 3; /* VMLA.., VFMA.. */
            else if (opc1 == 0x8) r.cycles = 14;                                         /* VDIV */
            else if (opc1 == 0xB && opc2 == 1 && opc3 == 3) r.cycles = 14;                /* VSQRT */
        }
    }
    return r;
}

#endif
