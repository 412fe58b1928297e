// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: firmware identity and what the function may use: get version
 * (0x0001), clear PF configuration (0x02A4), list device and function
 * capabilities (0x000B, 0x000A), manage MAC read (0x0107) and driver
 * version (0x0002). Facts 3.1-3.6.
 */

#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/utsname.h>

#include "ice_lite.h"

/* ice warns when the firmware's API minor is this far from its own. */
#define ICE_LITE_API_MINOR_SLACK	2

/**
 * ice_lite_get_fw_version() - get version (0x0001) and check the API
 * @pf: the PF
 *
 * Records "fw <maj>.<min>.<patch> api <maj>.<min>.<patch>" for ethtool.
 *
 * Context: Process context.
 * Return: 0, -EOPNOTSUPP for an API major newer than ours, or the send
 * error.
 */
int ice_lite_get_fw_version(struct ice_lite_pf *pf)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct e810_aqc_get_ver *resp;
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, E810_AQC_GET_VER);
	err = ice_lite_aq_send(pf, &desc, NULL, 0);
	if (err) {
		dev_err(dev, "get version failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
		return err;
	}

	resp = (struct e810_aqc_get_ver *)desc.params.raw;
	snprintf(pf->fw_version, sizeof(pf->fw_version),
		 "fw %u.%u.%u api %u.%u.%u", resp->fw_major, resp->fw_minor,
		 resp->fw_patch, resp->api_major, resp->api_minor,
		 resp->api_patch);

	if (resp->api_major > E810_AQ_API_MAJOR) {
		dev_err(dev, "firmware API %u.%u is newer than %u.x\n",
			resp->api_major, resp->api_minor, E810_AQ_API_MAJOR);
		return -EOPNOTSUPP;
	}
	if (resp->api_major == E810_AQ_API_MAJOR &&
	    abs((int)resp->api_minor - E810_AQ_API_MINOR) >
	    ICE_LITE_API_MINOR_SLACK)
		dev_info(dev, "firmware API %u.%u, driver expects %u.%u\n",
			 resp->api_major, resp->api_minor, E810_AQ_API_MAJOR,
			 E810_AQ_API_MINOR);
	return 0;
}

/**
 * ice_lite_clear_pf_cfg() - clear PF configuration (0x02A4)
 * @pf: the PF
 *
 * Drops whatever a previous driver left configured for the function.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_clear_pf_cfg(struct ice_lite_pf *pf)
{
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, E810_AQC_CLEAR_PF_CFG);
	err = ice_lite_aq_send(pf, &desc, NULL, 0);
	if (err)
		dev_err(ice_lite_pf_to_dev(pf),
			"clear PF configuration failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
	return err;
}

/**
 * ice_lite_list_caps() - run one list-capabilities command
 * @pf: the PF
 * @opcode: E810_AQC_LIST_DEV_CAPS or E810_AQC_LIST_FUNC_CAPS
 * @buf: 4096-byte buffer for the elements
 * @count: out: number of elements in @buf
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_list_caps(struct ice_lite_pf *pf, u16 opcode,
			      struct e810_aqc_caps_elem *buf, u32 *count)
{
	struct e810_aqc_list_caps *cmd;
	struct e810_aq_desc desc;
	int err;

	ice_lite_aq_fill_desc(&desc, opcode);
	err = ice_lite_aq_send(pf, &desc, buf, ICE_LITE_AQ_BUF_SZ);
	cmd = (struct e810_aqc_list_caps *)desc.params.raw;
	if (err) {
		dev_err(ice_lite_pf_to_dev(pf),
			"list %s capabilities failed: %d (retval %u, count %u)\n",
			opcode == E810_AQC_LIST_DEV_CAPS ? "device" : "function",
			err, le16_to_cpu(desc.retval), le32_to_cpu(cmd->count));
		return err;
	}
	*count = min_t(u32, le32_to_cpu(cmd->count),
		       le16_to_cpu(desc.datalen) / sizeof(*buf));
	return 0;
}

/**
 * ice_lite_parse_dev_caps() - take what we need from the device caps
 * @pf: the PF
 * @elem: the elements
 * @count: number of elements
 * @rdma: out: the device reports RDMA
 */
static void ice_lite_parse_dev_caps(struct ice_lite_pf *pf,
				    const struct e810_aqc_caps_elem *elem,
				    u32 count, bool *rdma)
{
	u32 i;

	*rdma = false;
	for (i = 0; i < count; i++) {
		switch (le16_to_cpu(elem[i].cap)) {
		case E810_CAP_VALID_FUNCTIONS:
			pf->caps.valid_functions = le32_to_cpu(elem[i].number);
			break;
		case E810_CAP_RDMA:
			*rdma = le32_to_cpu(elem[i].number) == 1;
			break;
		}
	}
}

/**
 * ice_lite_parse_func_caps() - take what we need from the function caps
 * @pf: the PF
 * @elem: the elements
 * @count: number of elements
 */
static void ice_lite_parse_func_caps(struct ice_lite_pf *pf,
				     const struct e810_aqc_caps_elem *elem,
				     u32 count)
{
	struct ice_lite_caps *caps = &pf->caps;
	u32 i, number, phys;

	for (i = 0; i < count; i++) {
		number = le32_to_cpu(elem[i].number);
		phys = le32_to_cpu(elem[i].phys_id);
		switch (le16_to_cpu(elem[i].cap)) {
		case E810_CAP_RXQS:
			caps->num_rxq = number;
			caps->rxq_first = phys;
			break;
		case E810_CAP_TXQS:
			caps->num_txq = number;
			caps->txq_first = phys;
			break;
		case E810_CAP_MSIX:
			caps->num_msix = number;
			break;
		case E810_CAP_MAX_MTU:
			caps->max_mtu = number;
			break;
		case E810_CAP_RDMA:
			caps->rdma = number == 1;
			break;
		}
	}
}

/**
 * ice_lite_get_caps() - list device, then function capabilities
 * @pf: the PF
 *
 * RDMA is usable when both lists report it and at most four PFs are
 * enabled (ice's rule for port-limited parts). The function must have a
 * Tx and an Rx queue and at least two MSI-X vectors.
 *
 * Context: Process context.
 * Return: 0, -ENOMEM, -EIO, or -ENODEV if the function cannot do LAN.
 */
int ice_lite_get_caps(struct ice_lite_pf *pf)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct e810_aqc_caps_elem *buf;
	bool dev_rdma;
	u32 count;
	int err;

	buf = kzalloc(ICE_LITE_AQ_BUF_SZ, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	memset(&pf->caps, 0, sizeof(pf->caps));
	err = ice_lite_list_caps(pf, E810_AQC_LIST_DEV_CAPS, buf, &count);
	if (err)
		goto out_free;
	ice_lite_parse_dev_caps(pf, buf, count, &dev_rdma);

	memset(buf, 0, ICE_LITE_AQ_BUF_SZ);
	err = ice_lite_list_caps(pf, E810_AQC_LIST_FUNC_CAPS, buf, &count);
	if (err)
		goto out_free;
	ice_lite_parse_func_caps(pf, buf, count);

	if (pf->caps.rdma && (!dev_rdma ||
			      hweight32(pf->caps.valid_functions) > 4)) {
		dev_info(dev, "RDMA not available: device %s, %u PFs\n",
			 dev_rdma ? "has it" : "lacks it",
			 hweight32(pf->caps.valid_functions));
		pf->caps.rdma = false;
	}
	if (!pf->caps.num_rxq || !pf->caps.num_txq ||
	    pf->caps.num_msix < ICE_LITE_MSIX_RDMA_BASE) {
		dev_err(dev, "function has %u Rx, %u Tx queues, %u MSI-X vectors\n",
			pf->caps.num_rxq, pf->caps.num_txq, pf->caps.num_msix);
		err = -ENODEV;
		goto out_free;
	}
	dev_dbg(dev,
		"caps: PFs 0x%x, Rx %u@%u, Tx %u@%u, MSI-X %u, max MTU %u, RDMA %d\n",
		pf->caps.valid_functions, pf->caps.num_rxq, pf->caps.rxq_first,
		pf->caps.num_txq, pf->caps.txq_first, pf->caps.num_msix,
		pf->caps.max_mtu, pf->caps.rdma);

out_free:
	kfree(buf);
	return err;
}

/**
 * ice_lite_read_mac() - manage MAC read (0x0107): the LAN address
 * @pf: the PF
 *
 * Like ice, passes room for two entries and takes the first LAN entry.
 *
 * Context: Process context.
 * Return: 0, -EIO if the firmware has no valid LAN address, or the send
 * error.
 */
int ice_lite_read_mac(struct ice_lite_pf *pf)
{
	struct e810_aqc_manage_mac_read_resp resp[2] = {};
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct e810_aqc_manage_mac_read *cmd;
	struct e810_aq_desc desc;
	unsigned int i, n;
	int err;

	ice_lite_aq_fill_desc(&desc, E810_AQC_MANAGE_MAC_READ);
	err = ice_lite_aq_send(pf, &desc, resp, sizeof(resp));
	if (err) {
		dev_err(dev, "manage MAC read failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
		return err;
	}

	cmd = (struct e810_aqc_manage_mac_read *)desc.params.raw;
	if (!(le16_to_cpu(cmd->flags) & E810_AQC_MAN_MAC_LAN_ADDR_VALID)) {
		dev_err(dev, "firmware has no valid LAN MAC address\n");
		return -EIO;
	}
	n = min_t(unsigned int, cmd->num_addr,
		  le16_to_cpu(desc.datalen) / sizeof(resp[0]));
	for (i = 0; i < n; i++) {
		if (resp[i].addr_type != E810_AQC_MAN_MAC_ADDR_TYPE_LAN)
			continue;
		if (!is_valid_ether_addr(resp[i].mac_addr))
			break;
		ether_addr_copy(pf->perm_addr, resp[i].mac_addr);
		return 0;
	}
	dev_err(dev, "manage MAC read returned no usable LAN address\n");
	return -EIO;
}

/**
 * ice_lite_send_driver_version() - driver version (0x0002)
 * @pf: the PF
 *
 * Like ice: version 255.255.255.0 and the kernel release as the string
 * (no terminating NUL).
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_send_driver_version(struct ice_lite_pf *pf)
{
	struct e810_aqc_driver_ver *cmd;
	struct e810_aq_desc desc;
	char str[__NEW_UTS_LEN + 1];
	u16 len;
	int err;

	len = strscpy(str, init_utsname()->release, sizeof(str)) > 0 ?
	      strlen(str) : 0;
	if (!len)
		return -EINVAL;

	ice_lite_aq_fill_desc(&desc, E810_AQC_DRIVER_VER);
	desc.flags |= cpu_to_le16(E810_AQ_FLAG_RD);
	cmd = (struct e810_aqc_driver_ver *)desc.params.raw;
	cmd->major = 0xff;
	cmd->minor = 0xff;
	cmd->build = 0xff;
	cmd->subbuild = 0;
	err = ice_lite_aq_send(pf, &desc, str, len);
	if (err)
		dev_err(ice_lite_pf_to_dev(pf),
			"driver version failed: %d (retval %u)\n", err,
			le16_to_cpu(desc.retval));
	return err;
}
