// The declared calls of the public plan and add-on lists.
import { z } from 'zod'
import {
  type ApiPart,
  badQuery,
  cached,
  calls,
  dateTime,
  pagedList,
  ref,
} from '../http/openapi-kit.ts'
import { pageQuery } from '../http/paging.ts'

import { BILLING, BILLING_PAGE_SIZE } from './paths.ts'

/** The query of both public lists: custom or public ones, a tag, and the page. */
const catalogueQuery = (kind: 'plans' | 'addons') =>
  z.object({
    custom: z
      .enum(['true', 'false'])
      .meta({ example: 'false' })
      .describe(`true: only custom (negotiated) ${kind}; false: only public ones; absent: both`)
      .optional(),
    tag: z
      .string()
      .max(64)
      .describe(`Only ${kind} with this tag (exact match), e.g. the product tag tessera`)
      .optional(),
    ...pageQuery(BILLING_PAGE_SIZE),
  })

const billing = calls(BILLING, 'billing')

export const PLAN_OPENAPI: ApiPart = {
  tags: [{ name: 'billing', description: 'Plans and addons (credit top-ups)' }],
  schemas: {
    Feature: z.object({
      name: z.string().describe('The key the feature is listed under'),
      displayName: z.string(),
      value: z.xor([z.string(), z.number(), z.boolean()]),
      unit: z.string().optional(),
      description: z.string().optional(),
    }),
    Addon: z.object({
      _id: z.int().describe('Addon id'),
      name: z.string(),
      description: z.string(),
      amount: z.number().describe('Price in currency units, e.g. 20 for 20 USD'),
      currency: z.string().describe('ISO 4217 code'),
      credits: z.int().describe('Credits the addon adds'),
      features: z.record(z.string(), ref('Feature')).describe('Named features keyed by name'),
      tags: z.array(z.string()),
      custom: z.boolean(),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    Plan: z.object({
      _id: z.int().describe('Plan id; the free plan is -994'),
      name: z.string(),
      description: z.string(),
      amount: z.number().describe('Price per interval in currency units'),
      currency: z.string().describe('ISO 4217 code'),
      credits: z.int().describe('Credits per interval (the free plan: 50)'),
      features: z.record(z.string(), ref('Feature')).describe('Named features keyed by name'),
      tags: z.array(z.string()),
      custom: z.boolean(),
      interval: z
        .string()
        .describe("'monthly', 'yearly', or another interval; yearly ones start with 'yearly'"),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    PlanList: pagedList('Plan'),
    AddonList: pagedList('Addon'),
  },
  routes: [
    billing.get('/plans', 'listPlans', {
      summary: 'List subscription plans, a page at a time',
      description:
        'Sorted by sort order, amount and id. Clients loop while page.hasNext and split the plans into free (_id -994), monthly and yearly (interval starting with yearly).',
      query: catalogueQuery('plans'),
      responses: {
        '200': cached({ description: 'One page of plans', schema: ref('PlanList') }),
        '400': badQuery,
      },
    }),
    billing.get('/addons', 'listAddons', {
      summary: 'List addons (credit top-ups), a page at a time',
      query: catalogueQuery('addons'),
      responses: {
        '200': cached({ description: 'One page of addons', schema: ref('AddonList') }),
        '400': badQuery,
      },
    }),
  ],
}
