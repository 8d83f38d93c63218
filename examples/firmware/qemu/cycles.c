/* QEMU TCG plugin (plugin API v1, QEMU 7.2 as in Debian 12): a Cortex-M4 cycle estimate
 * (m4timing.h: the Technical Reference Manual's instruction timings, zero wait states) of
 * the measured window, for examples/firmware/run.sh on the Cortex-M4.
 *
 * The window is ../shared/tools/qemu-insncount/insncount.c's: from the first instruction
 * of `start` (default bench_start) up to, not including, the first instruction of `end`
 * (default bench_end), summed over windows. The plugin counts the window's instructions
 * too, so run.sh checks that it saw exactly what insncount saw.
 *
 * Each instruction's cost is fixed when its block is translated (m4_cost, with the
 * previous instruction of the block for the load-pipelining rule) and added inline when
 * it executes; an instruction that may write the PC also records its fall-through
 * address, and the first instruction of every block adds the refill (M4_REFILL_CYCLES)
 * when it is not that address (the branch was taken).
 *
 * Usage: qemu-system-arm ... -plugin ./libcycles.so[,start=SYM][,end=SYM]
 * Output on stderr:
 *   cycles: windows=W window_insns=I window_cycles=C refill=P div=D
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
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *, enum qemu_plugin_op, void *, uint64_t);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *, vcpu_udata_cb_t, enum qemu_plugin_cb_flags, void *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, udata_cb_t, void *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static const char *sym_start = "bench_start", *sym_end = "bench_end";
static uint64_t insns, cycles;           /* inline counters */
static uint64_t fallthrough;             /* of the last PC-writing instruction; 0: none */
static uint64_t n_windows, win_insns, win_cycles, start_insns, start_cycles;
static int in_window;

/* First instruction of a block: the previous block's branch was taken unless execution
 * continues at its fall-through. */
static void on_block(unsigned int vcpu, void *pc) {
    (void)vcpu;
    if (fallthrough && (uint64_t)(uintptr_t)pc != fallthrough) cycles += M4_REFILL_CYCLES;
    fallthrough = 0;
}

static void on_flow(unsigned int vcpu, void *next) {
    (void)vcpu;
    fallthrough = (uint64_t)(uintptr_t)next;
}

static void on_start(unsigned int vcpu, void *u) {
    (void)vcpu; (void)u;
    in_window = 1;
    start_insns = insns;
    start_cycles = cycles;
}

static void on_end(unsigned int vcpu, void *u) {
    (void)vcpu; (void)u;
    if (!in_window) return;
    win_insns += insns - start_insns;
    win_cycles += cycles - start_cycles;
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
        /* Callbacks run before the inline adds, as insncount.c registers them: a window
         * starts before its first instruction is counted, and the refill of the branch
         * into `end` is counted before the window closes. */
        if (i == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_block, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)pc);
        if (i == 0 && sym && strcmp(sym, sym_start) == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (i == 0 && sym && strcmp(sym, sym_end) == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
        struct m4_cost c = {1, 0};
        if (size == 2 || size == 4) c = m4_cost((const uint8_t *)qemu_plugin_insn_data(insn), size, &prev);
        if (c.flow)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_flow, QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)(pc + size));
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &insns, 1);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &cycles, c.cycles);
    }
}

static void at_exit(qemu_plugin_id_t id, void *u) {
    (void)id; (void)u;
    fprintf(stderr, "cycles: windows=%llu window_insns=%llu window_cycles=%llu refill=%d div=%d\n",
            (unsigned long long)n_windows, (unsigned long long)win_insns, (unsigned long long)win_cycles,
            M4_REFILL_CYCLES, M4_DIV_CYCLES);
    fflush(stderr);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "start=", 6) == 0) sym_start = argv[i] + 6;
        else if (strncmp(argv[i], "end=", 4) == 0) sym_end = argv[i] + 4;
        else { fprintf(stderr, "cycles: unknown arg %s\n", argv[i]); return -1; }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
