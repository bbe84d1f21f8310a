// Roles (issue 24, decision 019), table-driven over the OpenAPI document: every call on an
// organisation declares the weakest role that may make it, and the running server refuses every
// weaker role (403 forbidden) and lets every role at or above it through — for owners, admins,
// members, viewers and API tokens. A new call on an organisation without a declared role fails the
// first test. Then the owner rules of the members calls.
import { beforeAll, describe, expect, it } from 'vitest'
import type { OpenApiDocument, OpenApiOperation } from '../openapi.ts'
import { expectError } from '../test-client.ts'
import { type TestDatabaseKind, testDatabases } from '../test-server.ts'
import { useTestServer } from '../test-suite.ts'
import { ORG_ROLES, type OrgRole, roleAtLeast } from './auth.ts'

const ORG = '/service/panel/organization/v1.0'
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

interface Call {
  method: (typeof METHODS)[number]
  path: string
  operation: OpenApiOperation
}

/** Calls on an organisation: `{orgId}` in the path, or a declared role (uploads name it in ?orgId). */
function organisationCalls(document: OpenApiDocument): Call[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method]
      if (operation === undefined) return []
      if (!path.includes('{orgId}') && operation['x-required-role'] === undefined) return []
      return [{ method, path, operation }]
    }),
  )
}

describe.each<TestDatabaseKind>(testDatabases('server'))('roles on %s', (kind) => {
  const suite = useTestServer(kind, {}, { owner: { token: true } })
  let document: OpenApiDocument
  const cookies = new Map<OrgRole, string>()

  beforeAll(async () => {
    const { server, client, owner } = suite
    document = (await (await fetch(`${server.url}/service/openapi.json`)).json()) as OpenApiDocument
    cookies.set('owner', owner.cookie)
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const { member } = await client.join(owner, { role })
      cookies.set(role, member.cookie)
    }
  })

  it('declares a role for every call on an organisation', () => {
    const calls = organisationCalls(document)
    expect(calls.length).toBeGreaterThan(30)
    const undeclared = calls
      .filter(({ operation }) => !ORG_ROLES.includes(operation['x-required-role'] as OrgRole))
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
    expect(undeclared).toEqual([])
    for (const { operation } of calls) expect(typeof operation['x-api-tokens']).toBe('boolean')
  })

  /** The call's URL with the owner's organisation and the declared examples of other parameters. */
  const urlOf = ({ path, operation }: Call, withOrgQuery: boolean) => {
    let url = path.replace('{orgId}', suite.owner.organisation._id)
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === 'path' && parameter.name !== 'orgId') {
        url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)))
      }
    }
    return withOrgQuery && !path.includes('{orgId}')
      ? `${url}?orgId=${suite.owner.organisation._id}`
      : url
  }

  const refused = (status: number, body: unknown) =>
    status === 403 && (body as { code?: string } | undefined)?.code === 'forbidden'

  it('refuses each role below the declared one, and lets each role at or above it through', async () => {
    const wrong: string[] = []
    for (const call of organisationCalls(document)) {
      const needed = call.operation['x-required-role'] as OrgRole
      const name = `${call.method.toUpperCase()} ${call.path}`
      const send = (auth: { cookie?: string; token?: string }) =>
        suite.call(call.method.toUpperCase(), urlOf(call, auth.cookie !== undefined), {
          ...auth,
          ...(call.method === 'get' || call.method === 'delete' ? {} : { body: {} }),
        })
      // Weakest first, so a call that changes something runs last, as the owner.
      for (const role of ORG_ROLES) {
        const answer = await send({ cookie: cookies.get(role) ?? '' })
        const allowed = roleAtLeast(role, needed)
        if (allowed === refused(answer.status, answer.body)) {
          wrong.push(`${name} as ${role}: ${answer.status} ${JSON.stringify(answer.body)}`)
        }
      }
      const answer = await send({ token: suite.token })
      if (call.operation['x-api-tokens'] === refused(answer.status, answer.body)) {
        wrong.push(`${name} as API token: ${answer.status} ${JSON.stringify(answer.body)}`)
      }
    }
    expect(wrong).toEqual([])
  })

  describe('owner rules on members and invitations', () => {
    it('lets an admin manage non-owners but never make, unmake or remove an owner', async () => {
      const team = await suite.client.signup()
      const { member: admin } = await suite.client.join(team, { role: 'admin' })
      const { member } = await suite.client.join(team, { role: 'member' })
      const base = `${ORG}/${team.organisation._id}`
      const asAdmin = (method: string, path: string, body?: unknown) =>
        suite.call(method, `${base}${path}`, {
          cookie: admin.cookie,
          ...(body === undefined ? {} : { body }),
        })
      const changed = await asAdmin('PATCH', `/members/${member.user._id}`, { role: 'viewer' })
      expect(changed.status, JSON.stringify(changed.body)).toBe(200)
      expectError(
        await asAdmin('PATCH', `/members/${member.user._id}`, { role: 'owner' }),
        403,
        'forbidden',
      )
      expectError(
        await asAdmin('PATCH', `/members/${team.user._id}`, { role: 'member' }),
        403,
        'forbidden',
      )
      expectError(await asAdmin('DELETE', `/members/${team.user._id}`), 403, 'forbidden')
      expectError(
        await asAdmin('POST', '/invitations', { email: 'boss@example.com', role: 'owner' }),
        403,
        'forbidden',
      )
      const invited = await asAdmin('POST', '/invitations', {
        email: 'reader@example.com',
        role: 'viewer',
      })
      expect(invited.status, JSON.stringify(invited.body)).toBe(201)
      expect(invited.body).toMatchObject({ role: 'viewer' })
      const list = await suite.call('GET', `${base}/members`, { cookie: member.cookie })
      expect((list.body as { email: string; role: string }[]).map((m) => m.role).sort()).toEqual([
        'admin',
        'owner',
        'viewer',
      ])
      // The member, now a viewer, may leave; an admin may remove another member.
      expect((await asAdmin('DELETE', `/members/${member.user._id}`)).status).toBe(204)
    })

    it('lets an owner make an owner, and keeps the last owner', async () => {
      const team = await suite.client.signup()
      const { member } = await suite.client.join(team, { role: 'viewer' })
      const base = `${ORG}/${team.organisation._id}`
      expectError(
        await suite.call('PATCH', `${base}/members/${team.user._id}`, {
          cookie: team.cookie,
          body: { role: 'admin' },
        }),
        409,
        'last_owner',
      )
      const promoted = await suite.call('PATCH', `${base}/members/${member.user._id}`, {
        cookie: team.cookie,
        body: { role: 'owner' },
      })
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(200)
      const stepDown = await suite.call('PATCH', `${base}/members/${team.user._id}`, {
        cookie: team.cookie,
        body: { role: 'admin' },
      })
      expect(stepDown.status, JSON.stringify(stepDown.body)).toBe(200)
      expectError(
        await suite.call('PATCH', `${base}/members/${member.user._id}`, {
          cookie: member.cookie,
          body: { role: 'bogus' },
        }),
        400,
        'invalid_body',
      )
    })
  })
})
