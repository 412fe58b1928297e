// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the devlink instance of the PF and its two generic runtime
 * parameters enable_roce and enable_iwarp, which choose the RDMA protocol
 * the way ice does (ice/devlink/devlink.c: ice_dvl_rdma_params[]): the
 * two are mutually exclusive, a probe starts in RoCEv2, switching means
 * enable_roce false (the auxiliary device is withdrawn) and then
 * enable_iwarp true (it is published again as ice_lite.iwarp.<N>).
 *
 * The parameter callbacks changed their signatures over the kernels this
 * module builds for; Kbuild finds out which from the kernel's
 * <net/devlink.h> (ICE_LITE_DL_*).
 */

#include <net/devlink.h>

#include "ice_lite.h"

static const struct devlink_ops ice_lite_devlink_ops;

static struct ice_lite_pf *ice_lite_devlink_pf(struct devlink *devlink)
{
	return *(struct ice_lite_pf **)devlink_priv(devlink);
}

#ifdef ICE_LITE_DL_GET_EXTACK
#define ICE_LITE_DL_GET_ARGS	struct devlink *devlink, u32 id, \
				struct devlink_param_gset_ctx *ctx, \
				struct netlink_ext_ack *extack
#else
#define ICE_LITE_DL_GET_ARGS	struct devlink *devlink, u32 id, \
				struct devlink_param_gset_ctx *ctx
#endif

#ifdef ICE_LITE_DL_SET_EXTACK
#define ICE_LITE_DL_SET_ARGS	struct devlink *devlink, u32 id, \
				struct devlink_param_gset_ctx *ctx, \
				struct netlink_ext_ack *extack
#else
#define ICE_LITE_DL_SET_ARGS	struct devlink *devlink, u32 id, \
				struct devlink_param_gset_ctx *ctx
#endif

#ifdef ICE_LITE_DL_VALIDATE_PTR
#define ICE_LITE_DL_VALIDATE_ARGS	struct devlink *devlink, u32 id, \
					union devlink_param_value *val, \
					struct netlink_ext_ack *extack
#else
#define ICE_LITE_DL_VALIDATE_ARGS	struct devlink *devlink, u32 id, \
					union devlink_param_value val, \
					struct netlink_ext_ack *extack
#endif

/**
 * ice_lite_devlink_set_mode() - enable or disable one RDMA protocol
 * @pf: the PF
 * @proto: ICE_LITE_RDMA_PROTOCOL_ROCEV2 or _IWARP
 * @enable: the new value of the parameter
 *
 * Disabling withdraws the auxiliary device (the RDMA driver's remove runs
 * from inside this call) and clears the bit; enabling sets the bit and
 * publishes the device under the protocol's name, clearing the bit again
 * if that fails (ice_devlink_enable_roce_set(), _iw_set()). Enabling the
 * protocol already published changes nothing. While a reset is pending
 * the reset work publishes the device in the mode then chosen.
 *
 * Context: Process context, devlink instance lock held; takes
 * @pf->rdma_lock.
 * Return: 0 or a negative errno.
 */
static int ice_lite_devlink_set_mode(struct ice_lite_pf *pf, u32 proto,
				     bool enable)
{
	int err = 0;

	mutex_lock(&pf->rdma_lock);
	if (!enable) {
		ice_lite_rdma_unplug(pf);
		pf->rdma_mode &= ~proto;
		goto out;
	}
	pf->rdma_mode |= proto;
	if (test_bit(ICE_LITE_STATE_RESETTING, pf->state))
		goto out;
	err = ice_lite_rdma_plug(pf);
	if (err)
		pf->rdma_mode &= ~proto;
out:
	mutex_unlock(&pf->rdma_lock);
	return err;
}

/**
 * ice_lite_devlink_validate_mode() - may a protocol parameter be set
 * @pf: the PF
 * @other: the protocol bit that must be clear
 * @extack: netlink extended ack
 *
 * As ice: -EOPNOTSUPP when the PF cannot do RDMA, and whatever the value
 * when the other protocol is enabled.
 *
 * Return: 0 or -EOPNOTSUPP.
 */
static int ice_lite_devlink_validate_mode(struct ice_lite_pf *pf, u32 other,
					  struct netlink_ext_ack *extack)
{
	u32 mode;

	if (!ice_lite_rdma_capable(pf))
		return -EOPNOTSUPP;

	mutex_lock(&pf->rdma_lock);
	mode = pf->rdma_mode;
	mutex_unlock(&pf->rdma_lock);
	if (!(mode & other))
		return 0;

	if (other == ICE_LITE_RDMA_PROTOCOL_IWARP)
		NL_SET_ERR_MSG_MOD(extack,
				   "iWARP is currently enabled. This device cannot enable iWARP and RoCEv2 simultaneously");
	else
		NL_SET_ERR_MSG_MOD(extack,
				   "RoCEv2 is currently enabled. This device cannot enable iWARP and RoCEv2 simultaneously");
	return -EOPNOTSUPP;
}

static int ice_lite_devlink_get_mode(struct devlink *devlink,
				     struct devlink_param_gset_ctx *ctx,
				     u32 proto)
{
	struct ice_lite_pf *pf = ice_lite_devlink_pf(devlink);

	mutex_lock(&pf->rdma_lock);
	ctx->val.vbool = !!(pf->rdma_mode & proto);
	mutex_unlock(&pf->rdma_lock);
	return 0;
}

static int ice_lite_devlink_roce_get(ICE_LITE_DL_GET_ARGS)
{
	return ice_lite_devlink_get_mode(devlink, ctx,
					 ICE_LITE_RDMA_PROTOCOL_ROCEV2);
}

static int ice_lite_devlink_roce_set(ICE_LITE_DL_SET_ARGS)
{
	return ice_lite_devlink_set_mode(ice_lite_devlink_pf(devlink),
					 ICE_LITE_RDMA_PROTOCOL_ROCEV2,
					 ctx->val.vbool);
}

static int ice_lite_devlink_roce_validate(ICE_LITE_DL_VALIDATE_ARGS)
{
	return ice_lite_devlink_validate_mode(ice_lite_devlink_pf(devlink),
					      ICE_LITE_RDMA_PROTOCOL_IWARP,
					      extack);
}

static int ice_lite_devlink_iw_get(ICE_LITE_DL_GET_ARGS)
{
	return ice_lite_devlink_get_mode(devlink, ctx,
					 ICE_LITE_RDMA_PROTOCOL_IWARP);
}

static int ice_lite_devlink_iw_set(ICE_LITE_DL_SET_ARGS)
{
	return ice_lite_devlink_set_mode(ice_lite_devlink_pf(devlink),
					 ICE_LITE_RDMA_PROTOCOL_IWARP,
					 ctx->val.vbool);
}

static int ice_lite_devlink_iw_validate(ICE_LITE_DL_VALIDATE_ARGS)
{
	return ice_lite_devlink_validate_mode(ice_lite_devlink_pf(devlink),
					      ICE_LITE_RDMA_PROTOCOL_ROCEV2,
					      extack);
}

static const struct devlink_param ice_lite_devlink_params[] = {
	DEVLINK_PARAM_GENERIC(ENABLE_ROCE, BIT(DEVLINK_PARAM_CMODE_RUNTIME),
			      ice_lite_devlink_roce_get,
			      ice_lite_devlink_roce_set,
			      ice_lite_devlink_roce_validate),
	DEVLINK_PARAM_GENERIC(ENABLE_IWARP, BIT(DEVLINK_PARAM_CMODE_RUNTIME),
			      ice_lite_devlink_iw_get,
			      ice_lite_devlink_iw_set,
			      ice_lite_devlink_iw_validate),
};

/**
 * ice_lite_devlink_init() - allocate and register the devlink instance
 * @pf: the PF
 *
 * The parameters are registered before the instance, as ice does, so
 * that user space sees them from the instance's first notification.
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ice_lite_devlink_init(struct ice_lite_pf *pf)
{
	struct devlink *devlink;
	int err;

	devlink = devlink_alloc(&ice_lite_devlink_ops, sizeof(pf),
				ice_lite_pf_to_dev(pf));
	if (!devlink)
		return -ENOMEM;
	*(struct ice_lite_pf **)devlink_priv(devlink) = pf;

	err = devlink_params_register(devlink, ice_lite_devlink_params,
				      ARRAY_SIZE(ice_lite_devlink_params));
	if (err) {
		devlink_free(devlink);
		return err;
	}
	devlink_register(devlink);
	pf->devlink = devlink;
	return 0;
}

/**
 * ice_lite_devlink_unregister() - stop devlink requests
 * @pf: the PF
 *
 * Waits for a parameter change in progress; none can start afterwards.
 *
 * Context: Process context.
 */
void ice_lite_devlink_unregister(struct ice_lite_pf *pf)
{
	if (pf->devlink)
		devlink_unregister(pf->devlink);
}

/**
 * ice_lite_devlink_free() - undo ice_lite_devlink_init()
 * @pf: the PF, with ice_lite_devlink_unregister() done
 */
void ice_lite_devlink_free(struct ice_lite_pf *pf)
{
	if (!pf->devlink)
		return;
	devlink_params_unregister(pf->devlink, ice_lite_devlink_params,
				  ARRAY_SIZE(ice_lite_devlink_params));
	devlink_free(pf->devlink);
	pf->devlink = NULL;
}
