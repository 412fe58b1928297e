/*
 * The host tests' Harness (tests/unit/model_harness.h) over a real QEMU:
 * qemu-system-x86_64 runs the e810 device with -accel qtest (no guest
 * CPU), the test speaks QEMU's qtest protocol (docs/devel/testing/qtest.rst
 * in QEMU: "writel ADDR VAL", "readl ADDR", "outl PORT VAL", ...) for
 * register and config space access, and QMP for the rest. Guest RAM is a
 * shared memory-backend-file that this process maps too, so mem_ptr()
 * hands the drivers of tests/unit direct pointers into guest memory, as it
 * does for the in-process harness, and the same driver code runs against
 * the device through the glue (qemu-device/qemu/e810_pci.c): BARs, DMA,
 * the bottom half, reset and FLR.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "hw/e810_regs.h"
#include "qtest_harness.h"

#define RAM_SIZE    (512ull << 20)
#define BAR0_ADDR   0xe0000000ull
#define BARX_ADDR   (BAR0_ADDR + E810_BAR0_SIZE)

static struct {
    pid_t pid;
    int qt, qmp;
    uint8_t *ram;
    char dir[64];
    char line[65536];
} qs = { .pid = -1, .qt = -1, .qmp = -1 };

static void die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fail();
}

/* One line (without its newline) from @fd into qs.line. */
static const char *read_line(int fd)
{
    size_t n = 0;
    char c;

    for (;;) {
        ssize_t r = read(fd, &c, 1);

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            die("qtest: QEMU closed the connection");
        }
        if (c == '\n') {
            break;
        }
        if (n < sizeof(qs.line) - 1) {
            qs.line[n++] = c;
        }
    }
    if (n && qs.line[n - 1] == '\r') {
        n--;
    }
    qs.line[n] = 0;
    return qs.line;
}

static void send_str(int fd, const char *s)
{
    size_t len = strlen(s);

    while (len) {
        ssize_t w = write(fd, s, len);

        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            die("qtest: write to QEMU failed");
        }
        s += w;
        len -= w;
    }
}

/* A qtest command; returns the value of an "OK 0x..." answer. */
static uint64_t qtest_cmd(const char *fmt, ...)
{
    char buf[256];
    const char *l;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    send_str(qs.qt, buf);
    do {
        l = read_line(qs.qt);
    } while (!strncmp(l, "IRQ", 3));    /* only with irq_intercept */
    if (strncmp(l, "OK", 2)) {
        die("qtest: '%s' answered '%s'", buf, l);
    }
    return l[2] ? strtoull(l + 3, NULL, 0) : 0;
}

const char *qt_qmp(const char *fmt, ...)
{
    char buf[1024];
    const char *l;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    send_str(qs.qmp, buf);
    do {
        l = read_line(qs.qmp);
    } while (strncmp(l, "{\"return\"", 9) && strncmp(l, "{\"error\"", 8));
    return l;
}

uint64_t qt_core_stat(const char *name)
{
    const char *l = qt_qmp("{\"execute\": \"qom-get\", \"arguments\": "
                           "{\"path\": \"/machine/peripheral/e810\", "
                           "\"property\": \"x-core-stats\"}}\n");
    char key[64];
    const char *p;

    snprintf(key, sizeof(key), " %s=", name);
    p = strstr(l, key);
    if (!p) {
        snprintf(key, sizeof(key), "\"%s=", name);
        p = strstr(l, key);
    }
    if (!p) {
        die("x-core-stats has no %s: %s", name, l);
    }
    return strtoull(p + strlen(key), NULL, 0);
}

/* ---- PCI configuration space through ports 0xcf8/0xcfc --------------- */

#define DEVFN   (QT_SLOT << 3)

static void cfg_addr(unsigned reg)
{
    qtest_cmd("outl 0xcf8 0x%x\n", 0x80000000u | DEVFN << 8 | (reg & 0xfc));
}

uint32_t qt_cfg_read(unsigned reg, unsigned size)
{
    cfg_addr(reg);
    switch (size) {
    case 1:
        return qtest_cmd("inb 0x%x\n", 0xcfc + (reg & 3));
    case 2:
        return qtest_cmd("inw 0x%x\n", 0xcfc + (reg & 3));
    default:
        return qtest_cmd("inl 0xcfc\n");
    }
}

void qt_cfg_write(unsigned reg, uint32_t val, unsigned size)
{
    cfg_addr(reg);
    switch (size) {
    case 1:
        qtest_cmd("outb 0x%x 0x%x\n", 0xcfc + (reg & 3), val);
        break;
    case 2:
        qtest_cmd("outw 0x%x 0x%x\n", 0xcfc + (reg & 3), val);
        break;
    default:
        qtest_cmd("outl 0xcfc 0x%x\n", val);
    }
}

/* BAR0 (registers) and BAR3 (MSI-X), memory decoding and bus mastering. */
void qt_pci_enable(void)
{
    qt_cfg_write((0x10 + 4 * E810_BAR0), (uint32_t)BAR0_ADDR, 4);
    qt_cfg_write((0x10 + 4 * E810_BAR0) + 4, BAR0_ADDR >> 32, 4);
    qt_cfg_write((0x10 + 4 * E810_BAR_MSIX), (uint32_t)BARX_ADDR, 4);
    qt_cfg_write((0x10 + 4 * E810_BAR_MSIX) + 4, BARX_ADDR >> 32, 4);
    qt_cfg_write(0x04, 0x0006, 2);      /* PCI_COMMAND: MEMORY | MASTER */
}

/* ---- the Harness API --------------------------------------------------- */

static int listen_at(const char *path)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
    if (fd < 0 || bind(fd, (void *)&a, sizeof(a)) || listen(fd, 1)) {
        die("qtest: cannot listen at %s: %s", path, strerror(errno));
    }
    return fd;
}

static const char *qemu_binary(void)
{
    const char *b = getenv("QTEST_QEMU_BINARY");

    return b && *b ? b : QT_DEFAULT_QEMU;
}

Harness *harness_new(uint8_t pf_id)
{
    static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0xe8, 0x10, 0x01 };
    char qt_path[96], qmp_path[96], ram_path[96], cmd[2048];
    const char *extra = getenv("E810_QTEST_ARGS");
    Harness *h = calloc(1, sizeof(*h));
    int lqt, lqmp, fd;
    const char *l;

    assert_non_null(h);
    assert_int_equal(pf_id, 0);
    snprintf(qs.dir, sizeof(qs.dir), "%s/e810-qtest.XXXXXX",
             access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
    assert_non_null(mkdtemp(qs.dir));
    snprintf(qt_path, sizeof(qt_path), "%s/qtest", qs.dir);
    snprintf(qmp_path, sizeof(qmp_path), "%s/qmp", qs.dir);
    snprintf(ram_path, sizeof(ram_path), "%s/ram", qs.dir);
    fd = open(ram_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, RAM_SIZE), 0);
    qs.ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    assert_true(qs.ram != MAP_FAILED);
    close(fd);
    lqt = listen_at(qt_path);
    lqmp = listen_at(qmp_path);

    snprintf(cmd, sizeof(cmd),
             "exec %s -machine q35,memory-backend=ram -accel qtest "
             "-object memory-backend-file,id=ram,size=%llu,mem-path=%s,"
             "share=on -m %llu -nodefaults -display none -nographic "
             "-L /usr/share/qemu -L /usr/share/seabios "
             "-qtest unix:%s -qtest-log /dev/null "
             "-chardev socket,path=%s,id=qmp -mon chardev=qmp,mode=control "
             "-device e810,id=e810,addr=%x.0,"
             "mac=%02x:%02x:%02x:%02x:%02x:%02x %s",
             qemu_binary(), RAM_SIZE, ram_path, RAM_SIZE >> 20, qt_path,
             qmp_path, QT_SLOT, mac[0], mac[1], mac[2], mac[3], mac[4],
             mac[5], extra ? extra : "");
    qs.pid = fork();
    assert_true(qs.pid >= 0);
    if (qs.pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    qs.qt = accept4(lqt, NULL, NULL, SOCK_CLOEXEC);
    qs.qmp = accept4(lqmp, NULL, NULL, SOCK_CLOEXEC);
    close(lqt);
    close(lqmp);
    assert_true(qs.qt >= 0 && qs.qmp >= 0);
    l = read_line(qs.qmp);
    assert_non_null(strstr(l, "QMP"));
    qt_qmp("{\"execute\": \"qmp_capabilities\"}\n");

    memcpy(h->core.mac, mac, sizeof(mac));
    h->core.pf_id = pf_id;
    assert_int_equal(qt_cfg_read(0, 2), E810_PCI_VENDOR_ID);
    assert_int_equal(qt_cfg_read(2, 2), E810_PCI_DEVICE_ID_C_QSFP);
    qt_pci_enable();
    return h;
}

void harness_free(Harness *h)
{
    int status;

    if (qs.pid > 0) {
        kill(qs.pid, SIGTERM);
        waitpid(qs.pid, &status, 0);
        qs.pid = -1;
    }
    if (qs.qt >= 0) {
        close(qs.qt);
        close(qs.qmp);
        qs.qt = qs.qmp = -1;
    }
    if (qs.ram) {
        char p[96];

        munmap(qs.ram, RAM_SIZE);
        qs.ram = NULL;
        snprintf(p, sizeof(p), "%s/ram", qs.dir);
        unlink(p);
        snprintf(p, sizeof(p), "%s/qtest", qs.dir);
        unlink(p);
        snprintf(p, sizeof(p), "%s/qmp", qs.dir);
        unlink(p);
        rmdir(qs.dir);
    }
    free(h);
}

uint32_t rd32(Harness *h, uint32_t off)
{
    return qtest_cmd("readl 0x%llx\n", BAR0_ADDR + off);
}

void wr32(Harness *h, uint32_t off, uint32_t val)
{
    qtest_cmd("writel 0x%llx 0x%x\n", BAR0_ADDR + off, val);
}

uint64_t mem_alloc(Harness *h, size_t len)
{
    return mem_alloc_aligned(h, len, 64);
}

uint64_t mem_alloc_aligned(Harness *h, size_t len, size_t align)
{
    uint64_t gpa;

    h->mem_next = (h->mem_next + align - 1) & ~(uint64_t)(align - 1);
    gpa = MEM_BASE + h->mem_next;
    h->mem_next = (h->mem_next + len + 63) & ~63ull;
    assert_true(h->mem_next <= MEM_SIZE);
    memset(qs.ram + gpa, 0, len);
    return gpa;
}

void *mem_ptr(Harness *h, uint64_t gpa)
{
    assert_true(gpa < RAM_SIZE);
    return qs.ram + gpa;
}

/*
 * The glue runs deferred work in a bottom half, which QEMU's main loop
 * dispatches before it reads the next qtest command; a few round trips
 * (reads of guest RAM, which the device does not see) let work that
 * reschedules itself finish too. Tests that wait for completions poll.
 */
void harness_run_work(Harness *h)
{
    int i;

    __sync_synchronize();
    for (i = 0; i < 3; i++) {
        qtest_cmd("readb 0x0\n");
    }
    __sync_synchronize();
}

/*
 * dp_driver.c's transport tap and dp_model_qp() look into the model's
 * memory, which lives in QEMU here: tests that use them stay unit tests.
 */
void e810_dp_sq_kick(struct E810Core *core, uint32_t qp_id)
{
    fail_msg("qtest: the transport tap needs the in-process model");
}

E810Qp *e810_qp_get(E810Core *core, uint32_t id)
{
    fail_msg("qtest: model QP state is inside QEMU");
    return NULL;
}
