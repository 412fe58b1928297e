# SPDX-License-Identifier: GPL-2.0-only
#
# E810 RDMA stack: emulated E810 (QEMU), ice_lite + irdma (kernel),
# provider-irdma (rdma-core). See README.md and docs/.
#
#   make run     build what is missing, boot a guest with two e810 functions
#                and show what the stack does
#   make check   host unit tests, then the VM regression scenarios
#   make lint    kernel modules with W=1 C=1 (sparse), warnings are errors
#
# Every target that needs packages runs tools/deps.sh first (idempotent).

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KVER ?= $(shell bash -c '. $(TOP)/tools/lib.sh && echo $$KVER')
KVER_OLD ?= $(shell bash -c '. $(TOP)/tools/lib.sh && echo $$KVER_OLD')
KDIR ?= /usr/src/linux-headers-$(KVER)
MODULE_DIRS := drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma
KMAKE = $(MAKE) -C $(KDIR) E810_TOP=$(TOP)

all: qemu guest

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
	@for d in $(MODULE_DIRS); do \
		$(KMAKE) M=$(TOP)/$$d modules >/dev/null || exit 1; \
	done
	@echo "modules: built for $(KVER)"

guest: modules rdma-core
	@tools/mkguest.sh

run: all
	@tools/vm run --topology hub2 --name run tools/guest/demo.sh

unit: deps-host
	@$(MAKE) -s -C tests/unit check
	@$(MAKE) -s -C tests/provider check

# libFuzzer harnesses of the device model: a fixed number of runs each.
fuzz: deps-host
	@$(MAKE) -s -C tests/fuzz run

# C programs the VM scenarios run in the guest (tests/vm/progs/), built
# against our rdma-core; tools/vm copies build/progs/ into every guest.
progs: rdma-core
	@$(MAKE) -s -C tests/vm/progs

vm-check: all progs
	@tools/vm check

# Every RDMA scenario under both parents: the parent-agnostic ones (their
# "# also-parent:" line) run under the stock ice too (docs/testing.md).
vm-check-all-parents: all progs
	@E810_VM_ALL_PARENTS=1 tools/vm check

check:
	@tools/check.sh

# Warnings from gcc (W=1) or sparse (C=1) fail the target, against the
# guest's 6.12 headers and bookworm's 6.1, and so does checkpatch.pl (from
# Debian's linux-source-6.1, see tools/deps.sh). Two checks are off: an
# out-of-tree module that builds for 6.1 and 6.12 needs LINUX_VERSION_CODE
# tests, and those put the constant on the left. include/hw/e810_compat.h
# is skipped: its user-space half spells out __attribute__((packed)).
CHECKPATCH := $(shell bash -c '. $(TOP)/tools/lib.sh && echo $$CACHE')/checkpatch-6.1/scripts/checkpatch.pl
CHECKPATCH_OPTS := --no-tree --terse -q -f \
	--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON
CHECKPATCH_SKIP := include/hw/e810_compat.h

lint: deps-host lint-6.1
	@fail=0; \
	for d in $(MODULE_DIRS); do \
		$(KMAKE) M=$(TOP)/$$d clean >/dev/null; \
		out=$$($(KMAKE) M=$(TOP)/$$d W=1 C=1 modules 2>&1) || fail=1; \
		if grep -E 'warning|error' <<<"$$out"; then fail=1; fi; \
	done; \
	tools/deps.sh checkpatch || fail=1; \
	out=$$(git ls-files $(MODULE_DIRS) include | grep '\.[ch]$$' | \
		grep -v $(CHECKPATCH_SKIP) | \
		xargs $(CHECKPATCH) $(CHECKPATCH_OPTS) 2>&1) || fail=1; \
	if grep -E 'WARNING|ERROR|CHECK' <<<"$$out"; then fail=1; fi; \
	$(MAKE) -s -C tests/unit all >/dev/null || fail=1; \
	[ $$fail = 0 ] && echo "lint: clean (W=1 C=1, checkpatch, -Wall -Wextra -Werror)"; \
	[ $$fail = 0 ]

# The modules must also build against bookworm's own 6.1 kernel headers.
# Built in a scratch copy so the 6.12 objects in the tree stay as they are.
lint-6.1: deps-host
	@rm -rf build/lint-6.1 && mkdir -p build/lint-6.1 && \
	git ls-files -z drivers include | xargs -0 cp --parents -t build/lint-6.1; \
	fail=0; \
	for d in $(MODULE_DIRS); do \
		out=$$($(MAKE) -C /usr/src/linux-headers-$(KVER_OLD) \
			M=$(TOP)/build/lint-6.1/$$d E810_TOP=$(TOP)/build/lint-6.1 \
			W=1 C=1 modules 2>&1) || fail=1; \
		if grep -E 'warning|error' <<<"$$out"; then fail=1; fi; \
	done; \
	[ $$fail = 0 ] && echo "lint-6.1: clean against $(KVER_OLD)"; \
	[ $$fail = 0 ]

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
	@for d in $(MODULE_DIRS); do \
		[ -d $(KDIR) ] && $(KMAKE) M=$(TOP)/$$d clean >/dev/null; \
	done; true
	rm -rf build/unit build/provider-tests build/progs build/vm build/guest

.PHONY: all deps deps-host qemu rdma-core modules guest run unit fuzz progs vm-check \
	check vm-check-all-parents lint lint-6.1 install uninstall install-provider \
	uninstall-provider dkms-source clean
