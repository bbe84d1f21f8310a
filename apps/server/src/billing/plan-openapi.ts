// The OpenAPI part of the public plan and addon lists.

import {
  arrayOf,
  badQuery,
  bool,
  cached,
  dateTime,
  int,
  json,
  type OpenApiParameter,
  type OpenApiPart,
  object,
  pageNo,
  pageSize,
  ref,
  str,
} from '../http/openapi-kit.ts'
import { BILLING, BILLING_PAGE_SIZE } from './paths.ts'

const billingParams = (kind: string): OpenApiParameter[] => [
  {
    name: 'custom',
    in: 'query',
    description: `true: only custom (negotiated) ${kind}; false: only public ones; absent: both`,
    schema: { type: 'string', enum: ['true', 'false'] },
    example: 'false',
  },
  {
    name: 'tag',
    in: 'query',
    description: `Only ${kind} with this tag (exact match), e.g. the product tag tessera`,
    schema: { type: 'string', maxLength: 64 },
  },
  pageNo,
  pageSize(BILLING_PAGE_SIZE),
]

export const PLAN_OPENAPI: OpenApiPart = {
  tags: [{ name: 'billing', description: 'Plans and addons (credit top-ups)' }],
  schemas: {
    Feature: object(
      {
        name: str('The key the feature is listed under'),
        displayName: str(),
        value: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
        unit: str(),
        description: str(),
      },
      ['name', 'displayName', 'value'],
    ),
    Addon: object({
      _id: int('Addon id'),
      name: str(),
      description: str(),
      amount: { type: 'number', description: 'Price in currency units, e.g. 20 for 20 USD' },
      currency: str('ISO 4217 code'),
      credits: int('Credits the addon adds'),
      features: {
        type: 'object',
        description: 'Named features keyed by name',
        additionalProperties: ref('Feature'),
      },
      tags: arrayOf(str()),
      custom: bool,
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    Plan: object({
      _id: int('Plan id; the free plan is -994'),
      name: str(),
      description: str(),
      amount: { type: 'number', description: 'Price per interval in currency units' },
      currency: str('ISO 4217 code'),
      credits: int('Credits per interval (the free plan: 50)'),
      features: {
        type: 'object',
        description: 'Named features keyed by name',
        additionalProperties: ref('Feature'),
      },
      tags: arrayOf(str()),
      custom: bool,
      interval: str("'monthly', 'yearly', or another interval; yearly ones start with 'yearly'"),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    PlanList: object({ items: arrayOf(ref('Plan')), page: ref('Page') }),
    AddonList: object({ items: arrayOf(ref('Addon')), page: ref('Page') }),
  },
  paths: {
    [`${BILLING}/plans`]: {
      get: {
        operationId: 'listPlans',
        summary: 'List subscription plans, a page at a time',
        description:
          'Sorted by sort order, amount and id. Clients loop while page.hasNext and split the plans into free (_id -994), monthly and yearly (interval starting with yearly).',
        tags: ['billing'],
        parameters: billingParams('plans'),
        responses: { '200': cached(json(ref('PlanList'), 'One page of plans')), '400': badQuery },
      },
    },
    [`${BILLING}/addons`]: {
      get: {
        operationId: 'listAddons',
        summary: 'List addons (credit top-ups), a page at a time',
        tags: ['billing'],
        parameters: billingParams('addons'),
        responses: {
          '200': cached(json(ref('AddonList'), 'One page of addons')),
          '400': badQuery,
        },
      },
    },
  },
}
