// Strict transformations (issue 9, docs/decisions/005-strict-transformations.md): an organisation
// with the setting on lets a delivery URL run an operation that costs credits only when the URL
// is signed with one of its keys or the operation comes from one of its presets. Anyone can make
// a new URL; only the organisation can sign one or define a preset.
import {
  ORIGINAL_PATTERN,
  type ParsedOperation,
  parseDeliveryPath,
  parsePattern,
  SIGNATURE_PARAMS,
  verifySignedUrl,
} from '@tessera/url'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { signingKeyOf } from './signing-keys.ts'

/**
 * The status of a refused URL. Cloudinary answers 401 for a strict-transformations refusal
 * ("not allowed, URL not signed"), and delivery already answers 401 `invalid_signature`: the
 * fix in both cases is a signature.
 */
export const STRICT_TRANSFORMATIONS_STATUS = 401
export const STRICT_TRANSFORMATIONS_CODE = 'strict_transformations'

/**
 * The first operation written in `pattern` itself (not brought in by a `p:` preset reference)
 * that costs credits (a slow, AI operation), or undefined. Presets are not expanded: whatever a
 * preset brings in was chosen by the organisation.
 */
export function writtenCostlyOperation(
  operations: readonly ParsedOperation[],
): ParsedOperation | undefined {
  return operations.find(
    (operation) => operation.presetName === undefined && operation.spec?.slow === true,
  )
}

/** Whether the URL carries a signature at all (checked for validity separately). */
export function hasSignature(url: string): boolean {
  const query = url.indexOf('?')
  if (query === -1) return false
  return new URLSearchParams(url.slice(query + 1)).has(SIGNATURE_PARAMS.signature)
}

/** The refusal of a URL that would run `operation` unsigned. */
export function strictTransformationsError(operation: ParsedOperation, signed: boolean) {
  const key = operation.spec?.key ?? operation.text
  return new HttpError(
    STRICT_TRANSFORMATIONS_STATUS,
    STRICT_TRANSFORMATIONS_CODE,
    `${key} costs credits: this organisation only runs it from a signed URL or one of its presets${
      signed ? ' (the signature is not valid)' : ''
    }`,
  )
}

/** What the check needs of a delivery request. */
export interface StrictRequest {
  /** The raw path, percent-escapes kept. */
  path: string
  /** The full URL as requested (the signature is in its query). */
  url: string
  customDomainOrganisationId?: string
}

/**
 * The check delivery runs before it queues or charges an AI operation. It reads the chain as
 * written from the request path again, so delivery only has to call it.
 */
export function createStrictTransformations(app: Pick<AppContext, 'lookups'>) {
  const { lookups } = app

  async function validSignature(url: string, organisationId: string): Promise<boolean> {
    const check = await verifySignedUrl(url, { getToken: signingKeyOf(lookups, organisationId) })
    return check.valid
  }

  /**
   * `how.video.job`: the chain makes a video, which costs credits whatever its operations
   * (delivery/video.ts), so any operation written outside a preset needs the signature.
   *
   * @throws {HttpError} 401 `strict_transformations` when the organisation has strict
   *   transformations on, the URL is not validly signed by one of its keys, and its chain writes
   *   an operation that costs credits outside a preset.
   */
  async function assertAllowed(
    request: StrictRequest,
    organisationId: string,
    how: { video?: { job: boolean } | undefined } = {},
  ): Promise<void> {
    const organisation = await lookups.organisationById(organisationId)
    if (organisation === undefined || !organisation.strictTransformations) return
    const parts = parseDeliveryPath(request.path, {
      isCustomDomain: request.customDomainOrganisationId !== undefined,
    })
    if (parts.pattern === ORIGINAL_PATTERN) return
    const written = parsePattern(parts.pattern).value
    const costly =
      writtenCostlyOperation(written) ??
      (how.video?.job === true
        ? written.find((operation) => operation.presetName === undefined)
        : undefined)
    if (costly === undefined) return
    const signed = hasSignature(request.url)
    if (signed && (await validSignature(request.url, organisationId))) return
    throw strictTransformationsError(costly, signed)
  }

  return { assertAllowed }
}
