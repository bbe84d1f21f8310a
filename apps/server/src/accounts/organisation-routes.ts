// Organisations, their API tokens, settings and signing keys (issues 4 and 9, DESIGN §6), and
// through `member-routes.ts` their members and invitations. Everything is reached through
// `/service/panel/organization/v1.0/{orgId}/…` and `requireOrganisation`, so a caller only ever
// touches an organisation they belong to; others answer 404.
import { Hono } from 'hono'
import { type ActivityEvent, actorOf, createActivityLog } from '../activity/activity.ts'
import type { AppContext, AppEnv } from '../context.ts'
import {
  type ApiToken,
  isUniqueViolation,
  type Organisation,
  type SigningKey,
} from '../db/index.ts'
import { HttpError } from '../http/errors.ts'
import { jsonLimit, readBody } from '../http/json-body.ts'
import { pickJson } from '../http/pick-json.ts'
import { API_TOKEN_PREFIX, type Auth, type Caller, randomToken, sha256 } from './auth.ts'
import { memberRoutes } from './member-routes.ts'
import { idParam, noStore } from './organisation-http.ts'
import { organisationChanges, settingsBody, tokenBody } from './requests.ts'

export const MAX_TOKENS_PER_ORGANISATION = 50
/** Live signing keys an organisation may hold (enough to rotate with room to spare). */
export const MAX_SIGNING_KEYS_PER_ORGANISATION = 10
function tokenJson(token: ApiToken) {
  return { _id: token.id, ...pickJson(token, ['name', 'prefix', 'createdAt', 'lastUsedAt']) }
}

/** The settings of an organisation (docs/api.md, "Organisation settings"). */
function settingsJson(organisation: Organisation) {
  return {
    requireSignedUrls: organisation.requireSignedUrls,
    strictTransformations: organisation.strictTransformations,
    allowRawFiles: organisation.allowRawFiles,
    corsOrigins: organisation.corsOrigins,
  }
}

/** A signing key as listed: never its secret, which is shown once, when it is created. */
function signingKeyJson(key: SigningKey) {
  return { _id: key.id, ...pickJson(key, ['accessKey', 'createdAt']) }
}

/**
 * The user's organisations (`GET /all`), an organisation's details, API tokens, settings and
 * signing keys, and its members and invitations (`member-routes.ts`), relative to
 * `ORGANIZATION`.
 */
export function organisationRoutes(
  app: Pick<AppContext, 'repo' | 'config' | 'logger' | 'lookups' | 'sessions' | 'mail'>,
  { auth }: { auth: Auth },
): Hono<AppEnv> {
  const { repo, lookups } = app
  const router = new Hono<AppEnv>()
  const ORG = '/:orgId'
  // Who did what, for the organisation's activity log (issue 24).
  const activity = createActivityLog(app)
  const log = (caller: Caller, event: ActivityEvent) =>
    activity.record(caller.organisation.id, actorOf(caller), event)

  // Before `/:orgId`, which would take `all` for an id.
  router.get('/all', async (c) => {
    noStore(c)
    const user = await auth.requireUser(c)
    const list = await repo.listUserOrganisations(user.id)
    return c.json(
      list.map(({ organisation, role, joinedAt }) => ({
        _id: organisation.id,
        name: organisation.name,
        cloudName: organisation.cloudName,
        role,
        createdAt: organisation.createdAt.toISOString(),
        joinedAt: joinedAt.toISOString(),
      })),
    )
  })

  router.route('/', memberRoutes(app, { auth }))

  router.get(ORG, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    const organisation = caller.organisation
    return c.json({
      _id: organisation.id,
      name: organisation.name,
      cloudName: organisation.cloudName,
      role: caller.role,
      planId: organisation.planId,
      credits: organisation.credits,
      requireSignedUrls: organisation.requireSignedUrls,
      createdAt: organisation.createdAt.toISOString(),
    })
  })

  router.patch(ORG, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const changes = await readBody(c, organisationChanges)
    let updated: Awaited<ReturnType<typeof repo.updateOrganisation>>
    try {
      updated = await repo.updateOrganisation(caller.organisation.id, changes)
    } catch (error) {
      if (isUniqueViolation(error, 'organisations_cloud_name_key')) {
        throw new HttpError(409, 'cloud_name_taken', `The cloud name ${changes.cloudName} is taken`)
      }
      throw error
    }
    if (updated === undefined)
      throw new HttpError(404, 'organisation_not_found', 'No such organisation')
    await lookups.forgetOrganisation(caller.organisation)
    // The new cloud name may be remembered as unknown.
    if (updated.cloudName !== caller.organisation.cloudName)
      await lookups.forgetOrganisation(updated)
    await log(caller, { kind: 'organisation.update', target: updated.name, details: changes })
    return c.json({
      _id: updated.id,
      name: updated.name,
      cloudName: updated.cloudName,
    })
  })

  // ── API tokens ───────────────────────────────────────────────────────────────────────────

  router.post(`${ORG}/tokens`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const { name } = await readBody(c, tokenBody)
    const live = await repo.listApiTokens(caller.organisation.id)
    if (live.length >= MAX_TOKENS_PER_ORGANISATION) {
      throw new HttpError(
        409,
        'too_many_tokens',
        `An organisation can hold ${MAX_TOKENS_PER_ORGANISATION} tokens: revoke one first`,
      )
    }
    const token = `${API_TOKEN_PREFIX}${randomToken()}`
    const created = await repo.createApiToken(caller.organisation.id, {
      name,
      tokenHash: sha256(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
      createdBy: caller.user?.id ?? null,
    })
    await log(caller, { kind: 'token.create', target: name, details: { prefix: created.prefix } })
    // The only time the token is shown: the database keeps its hash.
    return c.json({ ...tokenJson(created), token }, 201)
  })

  router.get(`${ORG}/tokens`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    return c.json((await repo.listApiTokens(caller.organisation.id)).map(tokenJson))
  })

  router.delete(`${ORG}/tokens/:tokenId`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const id = idParam(c, 'tokenId', 'token')
    if (!(await repo.revokeApiToken(caller.organisation.id, id))) {
      throw new HttpError(404, 'token_not_found', `No live token ${id}`)
    }
    await log(caller, { kind: 'token.revoke', target: id })
    return c.body(null, 204)
  })

  // ── settings and signing keys (issue 9) ──────────────────────────────────────────────────

  router.get(`${ORG}/settings`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'viewer' })
    return c.json(settingsJson(caller.organisation))
  })

  router.patch(`${ORG}/settings`, jsonLimit, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const changes = await readBody(c, settingsBody)
    const id = caller.organisation.id
    if (changes.requireSignedUrls === true && (await repo.listSigningKeys(id)).length === 0) {
      // Every URL would be refused: nothing could sign one.
      throw new HttpError(
        409,
        'no_signing_key',
        'Create a signing key before requiring signed URLs: no URL could be signed without one',
      )
    }
    const updated = await repo.updateOrganisationSettings(id, changes)
    if (updated === undefined) {
      throw new HttpError(404, 'organisation_not_found', 'No such organisation')
    }
    // Delivery reads organisations through the lookup cache: this process sees the change now.
    await lookups.forgetOrganisation(caller.organisation)
    c.get('log').info({ organisationId: id, changes }, 'organisation settings changed')
    await log(caller, { kind: 'settings.update', details: changes })
    return c.json(settingsJson(updated))
  })

  router.get(`${ORG}/signing-keys`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    return c.json((await repo.listSigningKeys(caller.organisation.id)).map(signingKeyJson))
  })

  router.post(`${ORG}/signing-keys`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const id = caller.organisation.id
    if ((await repo.listSigningKeys(id)).length >= MAX_SIGNING_KEYS_PER_ORGANISATION) {
      throw new HttpError(
        409,
        'too_many_signing_keys',
        `An organisation can hold ${MAX_SIGNING_KEYS_PER_ORGANISATION} signing keys: revoke one first`,
      )
    }
    const key = await repo.createSigningKey(id)
    // A process may remember the new access key as unknown.
    await lookups.forgetSigningKeys()
    c.get('log').info({ organisationId: id, signingKeyId: key.id }, 'signing key created')
    await log(caller, { kind: 'signing-key.create', target: key.accessKey })
    // The only time the secret is shown (verification needs it, so the server keeps it).
    return c.json({ ...signingKeyJson(key), secret: key.secret }, 201)
  })

  router.delete(`${ORG}/signing-keys/:keyId`, async (c) => {
    noStore(c)
    const caller = await auth.requirePathOrganisation(c, { role: 'admin' })
    const id = idParam(c, 'keyId', 'signing_key')
    const live = await repo.listSigningKeys(caller.organisation.id)
    if (caller.organisation.requireSignedUrls && live.length === 1 && live[0]?.id === id) {
      // Delivery would refuse every URL of the organisation.
      throw new HttpError(
        409,
        'last_signing_key',
        'Signed URLs are required: create another key or stop requiring them before revoking the last one',
      )
    }
    if (!(await repo.revokeSigningKeyById(caller.organisation.id, id))) {
      throw new HttpError(404, 'signing_key_not_found', `No live signing key ${id}`)
    }
    // No process may accept URLs signed with it once this answers.
    await lookups.forgetSigningKeys()
    await log(caller, { kind: 'signing-key.revoke', target: id })
    return c.body(null, 204)
  })
  return router
}
