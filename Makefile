# SPDX-License-Identifier: GPL-2.0-only
#
# E810 RDMA stack: emulated E810 (QEMU), ice_lite + irdma (kernel),
# provider-irdma (rdma-core). See README.md and docs/.
#
#   make run     build what is missing, boot a guest with two e810 functions
#                and show what the stack does
#   make check   host unit tests, then the VM regression scenarios
#   make qtest   the e810 QEMU device under -accel qtest, no guest (seconds)
#   make check-debug   LAN and RDMA scenarios on a KASAN/lockdep guest kernel
#   make lint    kernel modules with W=1 C=1 (sparse) for 6.12, 6.1 and
#                6.16+, checkpatch; warnings are errors
#
# Every target that needs packages runs tools/deps.sh first (idempotent).

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KVER ?= $(shell bash -c '. $(TOP)/tools/lib.sh && echo $$KVER')
KDIR ?= /usr/src/linux-headers-$(KVER)
MODULE_DIRS := drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma
# Test modules the VM scenarios load from their share (never installed).
TEST_MODULE_DIRS := tests/vm/kmod/cq_resize_stress tests/vm/kmod/ice_reset_req
KMAKE = $(MAKE) -C $(KDIR) E810_TOP=$(TOP)
# Compile jobs of the sub-makes below that are pure builds (the top level
# stays serial: its steps share apt through tools/deps.sh).
NPROC := $(shell nproc 2>/dev/null || echo 1)

all: qemu guest guest-6.1 guest-7

deps:
	@tools/deps.sh

deps-host:
	@tools/deps.sh host

qemu: deps
	@tools/build-qemu.sh

rdma-core: deps
	@tools/build-rdma-core.sh

# ice_lite first: irdma only uses its header, but keep the natural order.
modules: deps-host
	@for d in $(MODULE_DIRS) $(TEST_MODULE_DIRS); do \
		$(KMAKE) -j$(NPROC) M=$(TOP)/$$d modules >/dev/null || exit 1; \
	done
	@echo "modules: built for $(KVER)"

guest: modules rdma-core
	@tools/mkguest.sh

# The 6.1 guest: bookworm's own kernel with the normal guest's user space,
# our modules built against 6.1 (tools/mkguest-debian.sh; tools/vm --kernel
# 6.1). The 7 guest: the same with trixie-backports' KVER_NEW, our modules
# built in tools/kroot.sh's trixie root (tools/vm --kernel 7).
guest-6.1: guest
	@tools/mkguest-debian.sh 6.1

guest-7: guest
	@tools/mkguest-debian.sh 7

run: all
	@tools/vm run --topology hub2 --name run tools/guest/demo.sh

unit: deps-host
	@$(MAKE) -s -j$(NPROC) -C tests/unit check
	@$(MAKE) -s -j$(NPROC) -C tests/provider check

# The QEMU device without a guest (tests/qtest/): QEMU's qtest accelerator.
qtest: qemu
	@$(MAKE) -s -j$(NPROC) -C tests/qtest check
.PHONY: qtest

# The device as a patch series against QEMU's source (build/qemu-patches/);
# qemu-patches-check also applies it to the clean source and builds it on
# make qemu's build (its objects reused; in make check);
# qemu-patches-check-full configures and builds a clean copy from nothing
# (a full QEMU build, on demand).
qemu-patches: deps
	@tools/qemu-patches.sh

qemu-patches-check: qemu
	@tools/qemu-patches.sh --check

qemu-patches-check-full: deps
	@tools/qemu-patches.sh --check-full
.PHONY: qemu-patches qemu-patches-check qemu-patches-check-full

# libFuzzer harnesses of the device model: a fixed number of runs each.
fuzz: deps-host
	@$(MAKE) -s -j$(NPROC) -C tests/fuzz run

# The long fuzzing campaign, resumable: each harness is owed an hour of
# CPU (CAMPAIGN_CPU seconds), given in slices of CAMPAIGN_SLICE seconds
# per call; the corpus persists in the cache and what grows coverage is
# merged into tests/fuzz/corpus-found/ (tools/fuzz-campaign.sh).
fuzz-campaign: deps-host
	@tools/fuzz-campaign.sh

# C programs the VM scenarios run in the guest (tests/vm/progs/), built
# against our rdma-core; tools/vm copies build/progs/ into every guest.
progs: rdma-core
	@$(MAKE) -s -j$(NPROC) -C tests/vm/progs

# Kernel ULPs over RDMA against TCP on the same two ports, one boot
# (tests/bench/ulp.sh; ULP_MIB, ULP_ROUNDS, ULP_LIST); on demand, not in
# check. Table in build/bench/ulp.txt, figures in docs/performance.md.
bench-ulp: all progs
	@tests/bench/ulp.sh

# ib_write_bw -R, the E810 iWARP model (stock irdma at both ends) against
# soft-iWARP at both ends on the same two ports, one boot
# (tests/bench/iwarp_siw.sh; IWB_ROUNDS, IWB_N); on demand, not in check.
# Table in build/bench/iwarp_siw.txt, figures in docs/performance.md.
bench-iwarp-siw: all progs
	@tests/bench/iwarp_siw.sh

vm-check: all progs
	@tools/vm check

# Every RDMA scenario under both parents: the parent-agnostic ones (their
# "# also-parent:" line) run under the stock ice too (docs/testing.md).
vm-check-all-parents: all progs
	@E810_VM_ALL_PARENTS=1 tools/vm check

check:
	@tools/check.sh

# The 6.1 guest's set (docs/testing.md, "The 6.1 guest"): K61_SCENARIOS
# on bookworm's own kernel under every parent and RDMA driver they name,
# their "# also-parent:" ones included. make check runs only the stock-ice
# runs of the scenarios with a "# kernel: 6.1" line. The X722 under that
# kernel's i40e: its probe, the stock irdma's GEN_1 and ours (i40e_if.c)
# each with an rping (under a minute each).
# rdma_install's dkms step boots the module Debian's dkms built on the
# host for that kernel (dkms-6.1, dkms-7: tests/install/run.sh).
K61_SCENARIOS ?= ice_probe lan_ping rdma_link provider_pingpong perftest \
	rdma_cm pyverbs x722_probe x722_iwarp_rping x722_iwarp_ours rdma_install \
	lan_corer cq_resize

dkms-6.1: all
	@tests/install/run.sh dkms 6.1

vm-check-6.1: all progs dkms-6.1
	@E810_VM_ALL_PARENTS=1 tools/vm check --kernel 6.1 $(K61_SCENARIOS)

# The 7 guest's set (docs/testing.md, "The 7.x guest"): the same
# under the newest kernel, with the parent-dependent and data-path
# scenarios our irdma's 6.16+ binding (ice_rdma_if.c) runs under the stock
# ice, and the X722 runs of the 6.1 set. make check runs only the runs of
# the "# kernel: 7" lines.
K7_SCENARIOS ?= ice_probe lan_ping rdma_link provider_pingpong perftest \
	rdma_cm pyverbs rdma_gid rdma_tc rdma_crit_err rdma_cycles rdma_robust \
	rdma_loss nfs_rdma x722_probe x722_iwarp_rping x722_iwarp_ours \
	rdma_install lan_corer

dkms-7: all guest-7
	@tests/install/run.sh dkms 7

vm-check-7: all progs guest-7 dkms-7
	@E810_VM_ALL_PARENTS=1 tools/vm check --kernel 7 $(K7_SCENARIOS)

# The debug guest kernel (KASAN, lockdep, kmemleak, debug objects, DMA API
# checks: tools/build-debug-kernel.sh, ~35 min once, then cached) and the
# LAN and RDMA scenarios on it; a kernel report fails the scenario. Not part
# of make check (docs/testing.md, "Debug kernel").
DEBUG_SCENARIOS ?= ice_probe lan_ping lan_reset rdma_link provider_pingpong \
	rdma_cycles rdma_robust rdma_crit_err module_cycles verbs_abi stock_irdma

guest-debug: guest
	@tools/mkguest-debug.sh

# Resumable: a scenario that passed is not run again until the modules,
# model, scenarios or recipes change (tools/check-debug.sh).
check-debug: guest-debug progs
	@tools/check-debug.sh $(DEBUG_SCENARIOS)

# Warnings from gcc (W=1) or sparse (C=1) fail the target, against the
# guest's 6.12 headers, bookworm's 6.1 and a 6.16+ kernel (KVER_NEW, built
# in a trixie root: tools/kroot.sh), the shared ring layer lib/irdma-ring
# included (irdma.ko compiles it), and so do checkpatch.pl (the modules,
# include/hw, lib/irdma-ring) and the host tests' -Werror build. tools/lint.sh does the work and times each leg;
# lint-6.1 and lint-new run one kernel leg alone.
lint: deps-host
	@tools/lint.sh

lint-6.1: deps-host
	@tools/lint.sh 6.1

lint-new: deps-host
	@tools/lint.sh new

# A host with a real E810 and the distribution's stock ice
# (docs/real-hosts.md; the work is done by tools/host-install.sh):
#   make install KDIR=/lib/modules/$(uname -r)/build   irdma.ko into
#       /lib/modules/<release>/updates/ (ice_lite.ko too with WITH_ICE_LITE=1),
#       then depmod; refused when the stock-ice binding cannot be built
#       (ICE_SRC=none installs without it on purpose)
#   make install KRELEASE=<release>   the same without building: installs
#       the modules already built for that release (build/host/<release>/ or
#       the tree's, matched by vermagic), e.g. on a host without a compiler
#   make uninstall KDIR=... (or KRELEASE=...)   removes them again, depmod:
#       the kernel's irdma
#   make install-provider     our libirdma becomes libibverbs' irdma provider
#   make uninstall-provider   the stock provider again
#   make dkms-source          the tree as /usr/src/irdma-e810-<version>/
# DESTDIR (or INSTALL_MOD_PATH for the modules) stages into another root;
# depmod is then left to the target.
HOST_INSTALL = KDIR="$(KDIR)" KDIR_ORIGIN="$(origin KDIR)" KRELEASE="$(KRELEASE)" \
	DESTDIR="$(DESTDIR)" INSTALL_MOD_PATH="$(INSTALL_MOD_PATH)" \
	INSTALL_MOD_DIR="$(INSTALL_MOD_DIR)" \
	WITH_ICE_LITE="$(WITH_ICE_LITE)" ICE_SRC="$(ICE_SRC)" \
	IBVERBS_VERSION_CHECK="$(IBVERBS_VERSION_CHECK)" tools/host-install.sh

install:
	@$(HOST_INSTALL) modules

uninstall:
	@$(HOST_INSTALL) uninstall-modules

install-provider:
	@$(HOST_INSTALL) provider

uninstall-provider:
	@$(HOST_INSTALL) uninstall-provider

dkms-source:
	@$(HOST_INSTALL) dkms-source

clean:
	@for d in $(MODULE_DIRS) $(TEST_MODULE_DIRS); do \
		[ -d $(KDIR) ] && $(KMAKE) M=$(TOP)/$$d clean >/dev/null; \
	done; true
	rm -rf build/unit build/provider-tests build/progs build/vm build/guest
	@tools/kroot.sh clean

.PHONY: all deps deps-host qemu rdma-core modules guest run unit fuzz fuzz-campaign progs vm-check bench-ulp bench-iwarp-siw \
	check vm-check-all-parents guest-debug check-debug lint lint-6.1 lint-new install uninstall install-provider \
	uninstall-provider dkms-source clean guest-6.1 vm-check-6.1 guest-7 vm-check-7 \
	dkms-6.1 dkms-7
