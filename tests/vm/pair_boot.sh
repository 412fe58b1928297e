#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# timeout: 600
# Two guests on a stream netdev: each boots with its own single e810
# function bound to ice_lite and irdma and knows which node it is.
. "$E810_LIB"

expect_eq "nodes in the topology" 2 "$E810_NODES"
expect_eq "hostname" "e810-guest$E810_NODE" "$(hostname)"
mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions in this guest" 1 "${#devs[@]}"
expect_eq "PCI driver" ice_lite "$(driver_of /sys/bus/pci/devices/${devs[0]})"
aux=$(e810_aux_of "${devs[0]}")
expect_eq "auxiliary device" ice_lite.roce.0 "$aux"
expect_eq "aux driver module" irdma "$(module_of /sys/bus/auxiliary/devices/$aux)"
# Each guest has its own MAC (the runner derives it from the node number).
expect_eq "MAC of the function (DSN)" \
	"52-54-00-ff-fe-e8-10-$(printf '%02x' $((E810_NODE * 16)))" \
	"$(lspci -vv -s "${devs[0]}" | sed -n 's/.*Device Serial Number //p')"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
