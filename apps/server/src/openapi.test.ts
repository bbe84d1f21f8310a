// The OpenAPI document against the real server: every API route the app registers is described,
// every described path answers, and the answers of the public content calls fit their schemas.
import SwaggerParser from '@apidevtools/swagger-parser'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from './app.ts'
import { BILLING_PAGE_SIZE } from './billing/paths.ts'
import { APPS_PAGE_SIZE } from './content/paths.ts'
import type {
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiParameter,
} from './openapi.ts'
import { conform } from './openapi-suite.ts'
import { type TestDatabaseKind, testDatabases } from './test-server.ts'
import { useTestServer } from './test-suite.ts'

const DOCUMENTED_PREFIXES = ['/service/', '/cms/', '/api/']
const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete']

/** Hono's `/dynamicApps/:slug` written the OpenAPI way, `/dynamicApps/{slug}`. */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method]
      return operation === undefined ? [] : [{ path, method, operation }]
    }),
  )
}

/** The path with each path parameter replaced by its example. */
function examplePath(path: string, operation: OpenApiOperation): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find(
      (candidate: OpenApiParameter) => candidate.in === 'path' && candidate.name === name,
    )
    expect(parameter?.example, `example of ${name} in ${path}`).toBeDefined()
    const example = String(parameter?.example)
    return name === 'filePath' ? example : encodeURIComponent(example)
  })
}

describe.each<TestDatabaseKind>(testDatabases('server'))('the OpenAPI document on %s', (kind) => {
  let document: OpenApiDocument

  const suite = useTestServer(kind, {
    // Google sign-in is described, so it is switched on (its keys are never fetched here).
    GOOGLE_CLIENT_ID: 'openapi-test.apps.googleusercontent.com',
  })

  beforeAll(async () => {
    const response = await fetch(`${suite.server.url}/service/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(response.headers.get('cache-control')).toBe('public, max-age=60')
    document = JSON.parse(await response.text()) as OpenApiDocument
  })

  it('is OpenAPI 3.1 with info, servers and paths', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.title).toBe('Tessera')
    expect(document.servers[0]?.url).toBe(suite.server.config.publicUrl)
    expect(Object.keys(document.paths).length).toBeGreaterThan(10)
    const ids = operationsOf(document).map(({ operation }) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('validates against the OpenAPI 3.1 schema, every $ref resolving', async () => {
    // The parser changes what it reads, so it gets a copy; it throws naming the first problem.
    const parsed = await SwaggerParser.validate(structuredClone(document) as never)
    expect((parsed as { openapi?: string }).openapi).toBe('3.1.0')
  })

  it('finds a broken document invalid (so the check above can fail)', async () => {
    const broken = structuredClone(document) as unknown as Record<string, unknown>
    const paths = broken.paths as Record<string, Record<string, Record<string, unknown>>>
    const first = Object.values(paths)[0] as Record<string, Record<string, unknown>>
    const operation = Object.values(first)[0] as Record<string, unknown>
    operation.responses = { '200': { content: {} } }
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow()
  })

  it('describes every route the app registers under /service, /cms and /api', () => {
    const app = createApp(suite.server.services.context, {
      ...suite.server.services,
      openApi: () => document,
    })
    const registered = app.routes.filter(
      (route) =>
        route.method !== 'ALL' &&
        DOCUMENTED_PREFIXES.some((prefix) => route.path.startsWith(prefix)),
    )
    expect(registered.length).toBeGreaterThanOrEqual(11)
    for (const route of registered) {
      const path = openApiPath(route.path)
      const method = route.method.toLowerCase() as HttpMethod
      expect(document.paths[path]?.[method], `${route.method} ${route.path}`).toBeDefined()
    }
  })

  it('documents the existing delivery, upload, proxy and health routes too', () => {
    for (const path of [
      '/v2/{cloudName}/{pattern}/{filePath}',
      '/service/panel/assets/v1.0/upload/direct',
      '/service/panel/assets/v1.0/upload/url',
      '/service/panel/assets/v1.0/proxy/download',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      expect(document.paths[path], path).toBeDefined()
    }
  })

  it('gives the page-size defaults the server uses', () => {
    const defaultOf = (path: string) =>
      document.paths[path]?.get?.parameters?.find((p) => p.name === 'pageSize')?.schema.default
    expect(defaultOf('/service/panel/billing/v1.0/plans')).toBe(BILLING_PAGE_SIZE)
    expect(defaultOf('/service/panel/billing/v1.0/addons')).toBe(BILLING_PAGE_SIZE)
    expect(defaultOf('/service/public/apps/v1.0/dynamicApps')).toBe(APPS_PAGE_SIZE)
  })

  it('resolves every $ref', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? []
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of refs) {
      const name = ref.slice(8, -1).replace('#/components/schemas/', '')
      expect(document.components.schemas[name], ref).toBeDefined()
    }
  })

  it('describes paths that all answer something other than 404', async () => {
    for (const { path, method, operation } of operationsOf(document)) {
      const url = `${suite.server.url}${examplePath(path, operation)}`
      const response = await fetch(url, { method: method.toUpperCase() })
      await response.arrayBuffer()
      expect(response.status, `${method.toUpperCase()} ${path}`).not.toBe(404)
    }
  })

  it('has a schema check that finds missing, mistyped and unexpected values', () => {
    const page = { $ref: '#/components/schemas/Page' }
    const good = {
      current: 1,
      size: 3,
      hasNext: true,
      itemTotal: 7,
      type: 'number',
    }
    expect(conform(document, page, good)).toEqual([])
    expect(conform(document, page, { ...good, hasNext: 'yes' })).toHaveLength(1)
    expect(conform(document, page, { ...good, type: 'cursor' })).toHaveLength(1)
    const { itemTotal: _, ...partial } = good
    expect(conform(document, page, partial)).toEqual(['$: missing itemTotal'])
  })

  it('matches the answers of the content calls to their documented schemas', async () => {
    const calls = [
      '/service/panel/billing/v1.0/plans?custom=false&tag=tessera&pageNo=1',
      '/service/panel/billing/v1.0/addons?custom=false&pageNo=2',
      '/service/public/apps/v1.0/dynamicApps?pageSize=100',
      '/service/public/apps/v1.0/dynamicApps/colour-booster',
      '/service/public/transformation/v1.0/predictions',
      '/service/public/transformation/v1.0/predictions/schema/erase_bg',
      '/service/public/transformation/v1.0/predictions/schema/unknown',
      '/cms/api/product-sections?populate=*',
      '/cms/api/websites?filters[searchTag]=tessera&populate=socialMediaLinks&populate=footerBadgeList',
      '/cms/api/blogs?sort=publishedAt:desc&pagination[pageSize]=3&populate=*',
      '/cms/api/blogs?sort=nope',
      '/api/announcements',
      '/service/public/apps/v1.0/dynamicApps/unknown',
      '/service/panel/billing/v1.0/plans?pageNo=0',
      '/healthz',
      '/readyz',
    ]
    for (const call of calls) {
      const response = await fetch(`${suite.server.url}${call}`)
      const path = new URL(call, 'http://x').pathname
      const entry = Object.entries(document.paths).find(([template]) =>
        new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
      )
      const documented = entry?.[1].get?.responses[String(response.status)]
      expect(documented, `${call} → ${response.status}`).toBeDefined()
      const schema = documented?.content?.['application/json']?.schema
      expect(schema, call).toBeDefined()
      expect(conform(document, schema as JsonSchema, await response.json()), call).toEqual([])
    }
  })
})
