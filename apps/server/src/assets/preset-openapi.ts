// The declared calls of an organisation's presets (`preset-routes.ts`), a part of the files API.
import { z } from 'zod'
import { type ApiPart, dateTime, failure, formatted, orgRoute, ref } from '../http/openapi-kit.ts'
import { pageQuery } from '../http/paging.ts'

import { ASSET_API_BASE, ASSET_PAGE_SIZE } from './paths.ts'

export const PRESET_API: ApiPart = {
  tags: [],
  schemas: {
    Preset: z.object({
      _id: formatted('uuid'),
      orgId: formatted('uuid'),
      presetName: z.string(),
      name: z.string().describe('The same as presetName'),
      transformation: z.string().describe('Operations joined by ~, e.g. t.resize(w:$w)~t.flip()'),
      params: z
        .record(
          z.string(),
          z.object({
            type: z.enum([
              'integer',
              'float',
              'string',
              'color',
              'enum',
              'boolean',
              'file',
              'bbox',
              'bboxList',
              'polygonList',
            ]),
            default: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
            enum: z.array(z.string()).optional(),
            min: z.number().optional(),
            max: z.number().optional(),
          }),
        )
        .meta({ maxProperties: 20 })
        .describe('The `$variables` of the transformation: `{ name: { type, default } }`'),
      archived: z.boolean(),
      createdAt: dateTime,
      updatedAt: dateTime,
    }),
    PresetList: z.object({ items: z.array(ref('Preset')), page: ref('Page') }),
  },
  routes: [
    orgRoute({
      method: 'post',
      path: `${ASSET_API_BASE}/{orgId}/presets`,
      operationId: 'createPreset',
      summary: 'Create a preset',
      description:
        'The transformation is checked as delivery would use it: a pattern the URL language refuses, an undeclared $variable, a missing or archived preset it refers to, a cycle or more than 15 operations answer 400 invalid_transformation with the language’s message.',
      tags: ['presets'],
      body: {
        schema: z.object({
          presetName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
          transformation: z.string(),
          params: z
            .record(
              z.string(),
              z.object({
                type: z.enum([
                  'integer',
                  'float',
                  'string',
                  'color',
                  'enum',
                  'boolean',
                  'file',
                  'bbox',
                  'bboxList',
                  'polygonList',
                ]),
                default: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
                enum: z.array(z.string()).optional(),
                min: z.number().optional(),
                max: z.number().optional(),
              }),
            )
            .meta({ maxProperties: 20 })
            .describe('The `$variables` of the transformation: `{ name: { type, default } }`')
            .optional(),
          archived: z.boolean().optional(),
        }),
      },
      responses: {
        '201': { description: 'The new preset', schema: ref('Preset') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '409': failure('already_exists: the organisation has a preset of this name'),
        '413': failure('too_large: the JSON body is over 64 KB'),
        '415': failure('unsupported_media_type: send application/json'),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/presets`,
      operationId: 'listPresets',
      summary: 'Presets by name, paged',
      tags: ['presets'],
      query: z.object({
        archived: z
          .boolean()
          .describe('false: only usable presets; true: only archived ones; absent: both')
          .optional(),
        ...pageQuery(ASSET_PAGE_SIZE),
      }),
      responses: {
        '200': { description: 'One page of presets', schema: ref('PresetList') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
      },
    }),
    orgRoute({
      method: 'get',
      path: `${ASSET_API_BASE}/{orgId}/presets/{presetName}`,
      operationId: 'getPreset',
      summary: 'One preset',
      tags: ['presets'],
      params: {
        presetName: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .meta({ example: 'thumbnail' })
          .describe('The preset name (letters, digits, _ and -)'),
      },
      responses: {
        '200': { description: 'The preset', schema: ref('Preset') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or preset_not_found'),
      },
    }),
    orgRoute({
      method: 'patch',
      path: `${ASSET_API_BASE}/{orgId}/presets/{presetName}`,
      operationId: 'updatePreset',
      summary: 'Change the transformation or params, or archive (archived: true) / restore',
      tags: ['presets'],
      params: {
        presetName: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .meta({ example: 'thumbnail' })
          .describe('The preset name (letters, digits, _ and -)'),
      },
      body: {
        schema: z.object({
          transformation: z.string().optional(),
          params: z
            .record(
              z.string(),
              z.object({
                type: z.enum([
                  'integer',
                  'float',
                  'string',
                  'color',
                  'enum',
                  'boolean',
                  'file',
                  'bbox',
                  'bboxList',
                  'polygonList',
                ]),
                default: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
                enum: z.array(z.string()).optional(),
                min: z.number().optional(),
                max: z.number().optional(),
              }),
            )
            .meta({ maxProperties: 20 })
            .describe('The `$variables` of the transformation: `{ name: { type, default } }`')
            .optional(),
          archived: z.boolean().optional(),
        }),
      },
      responses: {
        '200': { description: 'The changed preset', schema: ref('Preset') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or preset_not_found'),
        '413': failure('too_large: the JSON body is over 64 KB'),
        '415': failure('unsupported_media_type: send application/json'),
      },
    }),
    orgRoute({
      method: 'delete',
      path: `${ASSET_API_BASE}/{orgId}/presets/{presetName}`,
      operationId: 'deletePreset',
      summary: 'Delete a preset (delivery URLs using it answer 400 afterwards)',
      tags: ['presets'],
      params: {
        presetName: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/)
          .meta({ example: 'thumbnail' })
          .describe('The preset name (letters, digits, _ and -)'),
      },
      responses: {
        '200': { description: 'The preset that was deleted', schema: ref('Preset') },
        '400': failure(
          'invalid_query, invalid_json, invalid_body, invalid_path, invalid_name, or a signature_* problem',
        ),
        '404': failure('organisation_not_found, or preset_not_found'),
      },
    }),
  ],
}
