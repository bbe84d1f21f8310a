// Resolving a delivery request before any image work: the organisation (by cloud name or
// custom domain), the zone, the signed-URL check, the file, and the operation chain with presets
// expanded and checked. Traversal in the raw path is refused before routing (`http/traversal.ts`).

import type { IncomingHttpHeaders } from 'node:http'
import {
  isUrlError,
  MAX_TRANSFORMATIONS,
  MESSAGES,
  type ParsedOperation,
  type PatternResult,
  parseDeliveryPath,
  parsePattern,
  parseQueryOptions,
  type UrlOptions,
  verifySignedUrl,
} from '@tessera/url'
import type { AppContext } from '../context.ts'
import { HttpError } from '../http/errors.ts'
import { expandStoredPresets } from './preset-expansion.ts'
import { signingKeyOf } from './signing-keys.ts'

/** The parts of a request delivery needs. */
export interface DeliveryRequest {
  method: string
  /** The raw path, percent-escapes kept (`/v2/demo/t.flip()/a%20b.png`). */
  path: string
  /** The raw query, with or without `?`. */
  search: string
  /** The full URL as requested, for signed-URL checks. */
  url: string
  headers: Headers
  /** The organisation named by a custom-domain host, when the request came through one. */
  customDomainOrganisationId?: string
  /** The client's address, which the render limit counts by; no limit without one. */
  clientAddress?: string
  /**
   * The request as node:http read it, when it came over HTTP: its fast-lane key (`fastKeyOf`)
   * and headers, so a hit can be remembered for the fast lane under what that lane reads, and
   * the lane's generation when it arrived (`FastLane.arrivedAt`).
   */
  raw?: { key: string; headers: IncomingHttpHeaders; generation?: number }
}

export type FileRow = NonNullable<Awaited<ReturnType<AppContext['repo']['findFile']>>>

/** What a delivery request resolved to, before any image work. */
export interface Resolved {
  organisationId: string
  file: FileRow
  operations: ParsedOperation[]
  options: UrlOptions
  /** The pattern with presets expanded (what a queued job runs). */
  pattern: string
  /** When the URL's verified signature expires (ms since the epoch), when one was required. */
  signedUntil?: number
  /** The origins the organisation lets read its images (`cors.ts`; none: no CORS header). */
  corsOrigins?: readonly string[]
}

/** How `resolve` treats the caller. */
export interface ResolveOptions {
  authorise?: (organisationId: string) => Promise<void>
  trusted?: boolean
}

/** A file path from a URL, decoded; 400 `invalid_path` for a malformed percent-escape. */
export function decodeFilePath(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new HttpError(400, 'invalid_path', 'The file path has a malformed percent-escape')
  }
}

/** The 404 of a cloud name no organisation has (also what another organisation's name answers). */
export function unknownCloudName(cloudName: string | undefined): HttpError {
  return new HttpError(404, 'not_found', `Unknown cloud name '${cloudName}'`)
}

function checked(result: PatternResult): ParsedOperation[] {
  const first = result.issues[0]
  if (first !== undefined) {
    throw new HttpError(400, 'invalid_transformation', `${first.operation}: ${first.message}`, {
      cause: result.issues,
    })
  }
  return result.value
}

/**
 * The parts of a delivery path. A path that fits no delivery-URL shape names nothing: 404
 * `not_found`, told apart from the URL language's other errors (400) by its code.
 */
function deliveryPathOf(path: string, isCustomDomain: boolean) {
  try {
    return parseDeliveryPath(path, { isCustomDomain })
  } catch (error) {
    if (isUrlError(error) && error.code === 'invalid_url') {
      throw new HttpError(404, 'not_found', error.message, { cause: error })
    }
    throw error
  }
}

/** Resolves delivery requests over the cached lookups. */
export function createResolver(app: Pick<AppContext, 'repo' | 'lookups'>) {
  const { repo, lookups } = app

  async function expand(organisationId: string, pattern: string): Promise<string> {
    const expanded = await expandStoredPresets(pattern, (name) =>
      lookups.preset(organisationId, name),
    )
    if (expanded === undefined) {
      throw new HttpError(400, 'invalid_preset', 'Presets nest too deeply')
    }
    return expanded
  }

  /** The file `t.merge(i:…)` names: by id (as uploads answer it), or by a path without folders. */
  async function findMergeFile(organisationId: string, reference: string) {
    return (
      (await repo.findFileById(organisationId, reference)) ??
      (await lookups.file(organisationId, decodeFilePath(reference)))
    )
  }

  async function mergedFiles(organisationId: string, operations: readonly ParsedOperation[]) {
    const found: FileRow[] = []
    for (const operation of operations) {
      const reference = operation.params.i
      if (operation.spec?.key !== 't.merge' || typeof reference !== 'string' || reference === '') {
        continue
      }
      const other = await findMergeFile(organisationId, reference)
      if (other === undefined) {
        throw new HttpError(400, 'missing_file', `t.merge: no file '${reference}' to merge`)
      }
      found.push(other)
    }
    return found
  }

  /**
   * Resolves a request. `how.authorise` is called with the organisation as soon as it is known
   * (and throws for a caller who may not see it); `how.trusted` skips the signed-URL check, for
   * a caller who speaks for the organisation.
   */
  async function resolve(request: DeliveryRequest, how: ResolveOptions = {}): Promise<Resolved> {
    const isCustomDomain = request.customDomainOrganisationId !== undefined
    const parts = deliveryPathOf(request.path, isCustomDomain)
    let organisationId: string
    let requireSignedUrls: boolean
    let corsOrigins: readonly string[]
    if (isCustomDomain) {
      const organisation = await lookups.organisationById(
        request.customDomainOrganisationId as string,
      )
      if (organisation === undefined) throw new HttpError(404, 'not_found', 'Unknown organisation')
      organisationId = organisation.id
      requireSignedUrls = organisation.requireSignedUrls
      corsOrigins = organisation.corsOrigins
    } else {
      const organisation = await lookups.organisationByCloudName(parts.cloudName as string)
      if (organisation === undefined) throw unknownCloudName(parts.cloudName)
      organisationId = organisation.id
      requireSignedUrls = organisation.requireSignedUrls
      corsOrigins = organisation.corsOrigins
    }
    await how.authorise?.(organisationId)
    if (
      parts.zone !== undefined &&
      (await lookups.zone(organisationId, parts.zone)) === undefined
    ) {
      throw new HttpError(404, 'not_found', `Unknown zone '${parts.zone}'`)
    }
    /** The signed URL's expiry (ms); 401 `invalid_signature` with `why` when it is not signed. */
    const signature = async (why: string): Promise<number> => {
      const check = await verifySignedUrl(request.url, {
        getToken: signingKeyOf(lookups, organisationId),
      })
      if (!check.valid) throw new HttpError(401, 'invalid_signature', `${why} (${check.reason})`)
      return check.expiresAt * 1000
    }
    let signedUntil: number | undefined
    if (requireSignedUrls && how.trusted !== true) {
      signedUntil = await signature('This URL must be signed')
    }
    // After the signature: a forged signed URL is refused as such, whatever its query holds.
    const options = parseQueryOptions(request.search)
    if (parts.worker) {
      throw new HttpError(404, 'not_found', 'No URL-translation worker is set up for this zone')
    }
    const filePath = decodeFilePath(parts.filePath)
    const file = await lookups.file(organisationId, filePath)
    if (file === undefined) throw new HttpError(404, 'not_found', `No file at '${filePath}'`)
    // A private file (issue 22) is delivered only through a signed URL, whatever the
    // organisation's setting.
    if (file.access === 'private' && signedUntil === undefined && how.trusted !== true) {
      signedUntil = await signature('This file is private: sign its URL')
    }

    // Check the pattern as written first (its own syntax and operations), then with presets
    // expanded, so each error names what the user actually wrote.
    let expanded = parts.pattern
    let value = checked(parsePattern(expanded, { format: file.format }))
    if (value.some((operation) => operation.presetName !== undefined)) {
      expanded = await expand(organisationId, parts.pattern)
      value = checked(parsePattern(expanded, { format: file.format }))
    }
    // Presets are expanded by now, so every operation counts once.
    if (value.length > MAX_TRANSFORMATIONS) {
      throw new HttpError(400, 'too_many_transformations', MESSAGES.maxTransformations)
    }
    // A private file merged into another image (`t.merge(i:…)`) needs the signature too.
    if (
      signedUntil === undefined &&
      how.trusted !== true &&
      value.some((operation) => operation.spec?.key === 't.merge') &&
      (await mergedFiles(organisationId, value)).some((other) => other.access === 'private')
    ) {
      signedUntil = await signature('This URL merges a private file: sign it')
    }
    const unavailable = value.find((operation) => operation.spec?.runnable !== true)
    if (unavailable !== undefined) {
      throw new HttpError(
        501,
        'operation_unavailable',
        unavailable.spec?.unavailableReason === undefined
          ? `${unavailable.spec?.key ?? unavailable.text} is not available on this server yet`
          : `${unavailable.spec.key} is not available on this server: ${unavailable.spec.unavailableReason}`,
      )
    }
    return {
      organisationId,
      file,
      operations: value,
      options,
      pattern: expanded,
      corsOrigins,
      ...(signedUntil === undefined ? {} : { signedUntil }),
    }
  }

  /** The organisation a delivery path names (a preflight needs no more); 404 when none. */
  async function organisationOf(
    request: Pick<DeliveryRequest, 'path' | 'customDomainOrganisationId'>,
  ) {
    const domainOwner = request.customDomainOrganisationId
    const organisation =
      domainOwner !== undefined
        ? await lookups.organisationById(domainOwner)
        : await lookups.organisationByCloudName(
            deliveryPathOf(request.path, false).cloudName as string,
          )
    if (organisation === undefined) throw new HttpError(404, 'not_found', 'Unknown organisation')
    return organisation
  }

  return { resolve, findMergeFile, mergedFiles, organisationOf }
}
