// The declared calls of the public plan and add-on lists.
import { z } from 'zod'
import { type ApiPart, dateTime, failure, ref, route } from '../http/openapi-kit.ts'
import { pageQuery } from '../http/paging.ts'

import { BILLING, BILLING_PAGE_SIZE } from './paths.ts'

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
    PlanList: z.object({ items: z.array(ref('Plan')), page: ref('Page') }),
    AddonList: z.object({ items: z.array(ref('Addon')), page: ref('Page') }),
  },
  routes: [
    route({
      method: 'get',
      path: `${BILLING}/plans`,
      operationId: 'listPlans',
      summary: 'List subscription plans, a page at a time',
      description:
        'Sorted by sort order, amount and id. Clients loop while page.hasNext and split the plans into free (_id -994), monthly and yearly (interval starting with yearly).',
      tags: ['billing'],
      query: z.object({
        custom: z
          .enum(['true', 'false'])
          .meta({ example: 'false' })
          .describe('true: only custom (negotiated) plans; false: only public ones; absent: both')
          .optional(),
        tag: z
          .string()
          .max(64)
          .describe('Only plans with this tag (exact match), e.g. the product tag tessera')
          .optional(),
        ...pageQuery(BILLING_PAGE_SIZE),
      }),
      responses: {
        '200': {
          description: 'One page of plans',
          schema: ref('PlanList'),
          headers: { 'Cache-Control': { description: 'public, max-age=60', schema: z.string() } },
        },
        '400': failure('A query parameter is invalid, repeated, too long or out of range'),
      },
    }),
    route({
      method: 'get',
      path: `${BILLING}/addons`,
      operationId: 'listAddons',
      summary: 'List addons (credit top-ups), a page at a time',
      tags: ['billing'],
      query: z.object({
        custom: z
          .enum(['true', 'false'])
          .meta({ example: 'false' })
          .describe('true: only custom (negotiated) addons; false: only public ones; absent: both')
          .optional(),
        tag: z
          .string()
          .max(64)
          .describe('Only addons with this tag (exact match), e.g. the product tag tessera')
          .optional(),
        ...pageQuery(BILLING_PAGE_SIZE),
      }),
      responses: {
        '200': {
          description: 'One page of addons',
          schema: ref('AddonList'),
          headers: { 'Cache-Control': { description: 'public, max-age=60', schema: z.string() } },
        },
        '400': failure('A query parameter is invalid, repeated, too long or out of range'),
      },
    }),
  ],
}
