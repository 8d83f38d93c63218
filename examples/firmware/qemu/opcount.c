/* QEMU TCG plugin (plugin API v1, QEMU 7.2 as in Debian 12): exact instruction counts per
 * operator of one inference, for examples/firmware/run.sh --per-op.
 *
 * Built the same way as ../shared/tools/qemu-insncount/insncount.c, whose window logic it
 * repeats: the window runs from the first instruction of `start` (default bench_start) up to,
 * not including, the first instruction of `end` (default bench_end). Inside it, every
 * execution of the marker function (`marker=ADDR`, `marker_size=BYTES`: the firmware's
 * `tflc_runtime::__private::op_marker`, which the generated run() calls before each
 * operator) starts a new segment:
 *
 *   window = before + segment[0] + ... + segment[M-1] + marker_insns
 *
 * `before` is the harness side up to the first marker (bench_start, the call of run(), its
 * prologue); segment[k] runs from marker call k to marker call k+1 (or to `end`): operator
 * k's arena views and kernel, and for the last one run()'s epilogue and return; marker_insns
 * are the instructions executed inside the marker function itself, counted apart.
 * Segments are recorded for the first window only.
 *
 * Each segment also gets the Cortex-M4 cycle estimate of m4timing.h (as qemu/cycles.c
 * counts it for the window; a taken branch's refill goes to the block it lands in, so the
 * refill of the call into the marker is the marker's): meaningful on the Cortex-M4 only.
 *
 * Usage: qemu-system-arm ... -plugin ./libopcount.so,marker=0x1234,marker_size=8[,start=SYM][,end=SYM]
 * Output on stderr:
 *   opcount: total=N windows=W window_insns=S before=B markers=M marker_insns=X stray_markers=Y
 *   opcount: cycles window=S before=B marker=X
 *   opcount: segment K insns=I cycles=C        (K = 0 .. M-1)
 * Only the few plugin-API entry points used are declared here (QEMU exports them). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m4timing.h"

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*vcpu_udata_cb_t)(unsigned int, void *);
typedef void (*udata_cb_t)(qemu_plugin_id_t, void *);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *, enum qemu_plugin_op, void *, uint64_t);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *, vcpu_udata_cb_t, enum qemu_plugin_cb_flags, void *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb_t, void *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_SEGMENTS 65536

static const char *sym_start = "bench_start", *sym_end = "bench_end";
static uint64_t marker_addr, marker_size;
static uint64_t total, marker_total;              /* inline counters */
static uint64_t n_windows, window_sum, win_start, stray_markers;
static int in_window;
static uint64_t seg_start, seg_marker_start, before;
static uint64_t n_markers;                         /* in the first window */
static uint64_t segments[MAX_SEGMENTS];
/* The same for the cycle estimate. */
static uint64_t cyc, marker_cyc;                   /* inline counters (and refills) */
static uint64_t win_cyc_start, win_cyc_sum, cyc_seg_start, cyc_seg_marker_start, cyc_before;
static uint64_t seg_cycles[MAX_SEGMENTS];
static uint64_t fallthrough;                       /* of the last PC-writing instruction */

/* Instructions since the last boundary, without the marker function's own. */
static uint64_t since_boundary(void) { return (total - seg_start) - (marker_total - seg_marker_start); }

static void boundary(void) {
    uint64_t n = since_boundary();
    uint64_t c = (cyc - cyc_seg_start) - (marker_cyc - cyc_seg_marker_start);
    if (n_markers == 0) { before = n; cyc_before = c; }
    else if (n_markers <= MAX_SEGMENTS) { segments[n_markers - 1] = n; seg_cycles[n_markers - 1] = c; }
    seg_start = total;
    seg_marker_start = marker_total;
    cyc_seg_start = cyc;
    cyc_seg_marker_start = marker_cyc;
}

/* First instruction of a block: the refill of a taken branch (m4timing.h). */
static void on_block(unsigned int vcpu, void *pc) {
    (void)vcpu;
    uint64_t at = (uint64_t)(uintptr_t)pc;
    if (fallthrough && at != fallthrough) {
        cyc += M4_REFILL_CYCLES;
        if (at >= marker_addr && at < marker_addr + marker_size) marker_cyc += M4_REFILL_CYCLES;
    }
    fallthrough = 0;
}

static void on_flow(unsigned int vcpu, void *next) {
    (void)vcpu;
    fallthrough = (uint64_t)(uintptr_t)next;
}

static void on_start(unsigned int vcpu, void *u) {
    (void)vcpu; (void)u;
    in_window = 1;
    win_start = total;
    win_cyc_start = cyc;
    if (n_windows == 0) { seg_start = total; seg_marker_start = marker_total; cyc_seg_start = cyc; cyc_seg_marker_start = marker_cyc; }
}

static void on_marker(unsigned int vcpu, void *u) {
    (void)vcpu; (void)u;
    if (!in_window) { stray_markers++; return; }
    if (n_windows == 0) { boundary(); n_markers++; }
}

static void on_end(unsigned int vcpu, void *u) {
    (void)vcpu; (void)u;
    if (!in_window) return;
    if (n_windows == 0) boundary();
    window_sum += total - win_start;
    win_cyc_sum += cyc - win_cyc_start;
    n_windows++;
    in_window = 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    struct m4_prev prev = {0, -1};
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        size_t size = qemu_plugin_insn_size(insn);
        const char *sym = qemu_plugin_insn_symbol(insn);
        /* As in insncount.c: callbacks are registered before the inline adds, so they run
         * before the instruction itself is counted (the block's refill first). */
        if (i == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_block, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)pc);
        if (i == 0 && sym && strcmp(sym, sym_start) == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (i == 0 && sym && strcmp(sym, sym_end) == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (pc == marker_addr)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS, NULL);
        struct m4_cost c = {1, 0};
        if (size == 2 || size == 4) c = m4_cost((const uint8_t *)qemu_plugin_insn_data(insn), size, &prev);
        if (c.flow)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_flow, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)(pc + size));
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &total, 1);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &cyc, c.cycles);
        if (pc >= marker_addr && pc < marker_addr + marker_size) {
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &marker_total, 1);
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &marker_cyc, c.cycles);
        }
    }
}

static void at_exit(qemu_plugin_id_t id, void *u) {
    (void)id; (void)u;
    uint64_t recorded = n_markers < MAX_SEGMENTS ? n_markers : MAX_SEGMENTS;
    fprintf(stderr,
            "opcount: total=%llu windows=%llu window_insns=%llu before=%llu markers=%llu marker_insns=%llu stray_markers=%llu%s\n",
            (unsigned long long)total, (unsigned long long)n_windows, (unsigned long long)window_sum,
            (unsigned long long)before, (unsigned long long)n_markers, (unsigned long long)marker_total,
            (unsigned long long)stray_markers, n_markers > MAX_SEGMENTS ? " truncated=1" : "");
    fprintf(stderr, "opcount: cycles window=%llu before=%llu marker=%llu\n", (unsigned long long)win_cyc_sum,
            (unsigned long long)cyc_before, (unsigned long long)marker_cyc);
    for (uint64_t k = 0; k < recorded; k++)
        fprintf(stderr, "opcount: segment %llu insns=%llu cycles=%llu\n", (unsigned long long)k,
                (unsigned long long)segments[k], (unsigned long long)seg_cycles[k]);
    fflush(stderr);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "start=", 6) == 0) sym_start = argv[i] + 6;
        else if (strncmp(argv[i], "end=", 4) == 0) sym_end = argv[i] + 4;
        else if (strncmp(argv[i], "marker=", 7) == 0) marker_addr = strtoull(argv[i] + 7, NULL, 0) & ~1ull;
        else if (strncmp(argv[i], "marker_size=", 12) == 0) marker_size = strtoull(argv[i] + 12, NULL, 0);
        else { fprintf(stderr, "opcount: unknown arg %s\n", argv[i]); return -1; }
    }
    if (!marker_addr || !marker_size) {
        fprintf(stderr, "opcount: needs marker=ADDR and marker_size=BYTES (the op_marker function)\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
