// Where Pixelbin's platform API answers: the paths `@pixelbin/admin` 4.2 calls, unchanged, so its
// SDKs work against this server with only the domain and the token changed (issue 22).

/** Every platform call starts here; the organisation is the API token's. */
export const PLATFORM = '/service/platform'
/** The assets family, before its version: signed upload URLs answer under `v1.0` and `v2.0`. */
export const PLATFORM_ASSETS_ROOT = `${PLATFORM}/assets`
/** Files, folders, presets, the playground catalogue (`assets.*` of the SDK). */
export const PLATFORM_ASSETS = `${PLATFORM_ASSETS_ROOT}/v1.0`
/** `organization.getAppOrgDetails`. */
export const PLATFORM_ORGANIZATION = `${PLATFORM}/organization/v1.0`
/** `transformation.getTransformationContext` (no version segment, as the SDK calls it). */
export const PLATFORM_TRANSFORMATION = `${PLATFORM}/transformation`
/** `billing.getUsageV2` and `billing.getUsage`. */
export const PLATFORM_PAYMENT = `${PLATFORM}/payment/v1.0`
