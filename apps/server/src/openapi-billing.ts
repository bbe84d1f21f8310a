import type { OpenApiPart } from './openapi-kit.ts'

/** The OpenAPI description of the credits ledger, checkouts and prediction jobs. */
export const BILLING_API: OpenApiPart = {
  tags: [],
  paths: {},
  schemas: {},
}
