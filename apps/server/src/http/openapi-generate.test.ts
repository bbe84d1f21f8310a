// The generator on a small declared API: a route documents itself by being declared.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { generateOpenApi } from './openapi-generate.ts'
import { ErrorBody, failure, orgRoute, ref, route } from './openapi-kit.ts'
import { pageQuery } from './paging.ts'
import { wholeNumber } from './query.ts'

const Note = z.object({ id: z.string(), text: z.string().max(10).describe('The note') })
const part = {
  tags: [{ name: 'notes', description: 'Notes' }],
  schemas: { Error: ErrorBody, Note },
  routes: [
    route({
      method: 'post',
      path: '/notes',
      operationId: 'createNote',
      summary: 'Create a note',
      tags: ['notes'],
      body: { schema: z.object({ text: z.string().max(10) }), example: { text: 'hi' } },
      responses: {
        '201': { description: 'Created', schema: Note },
        '400': failure('invalid_body'),
      },
    }),
    orgRoute({
      method: 'get',
      path: '/org/{orgId}/notes/{noteId}',
      operationId: 'getNote',
      access: { role: 'member' },
      summary: 'One note',
      tags: ['notes'],
      params: { noteId: z.string().meta({ example: 'n1' }).describe('The note id') },
      query: z.object({ ...pageQuery(7), limit: wholeNumber(1, 5).optional() }),
      responses: { '200': { description: 'The note', schema: ref('Note') } },
    }),
  ],
}

describe('generating OpenAPI from route declarations', () => {
  const { paths, schemas } = generateOpenApi([part])

  it('writes each declared route as an operation with its body and answers', () => {
    const create = paths['/notes']?.post
    expect(create?.operationId).toBe('createNote')
    expect(create?.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { text: { type: 'string', maxLength: 10 } },
            required: ['text'],
          },
          example: { text: 'hi' },
        },
      },
    })
    expect(create?.responses['201']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Note',
    })
    expect(create?.responses['400']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    })
  })

  it('puts shared schemas under components once, without zod’s own markers', () => {
    expect(schemas.Note).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        text: { type: 'string', maxLength: 10, description: 'The note' },
      },
      required: ['id', 'text'],
    })
    expect(Object.keys(schemas)).toEqual(['Error', 'Note'])
  })

  it('lifts descriptions and examples into parameters, and adds the organisation and its errors', () => {
    const get = paths['/org/{orgId}/notes/{noteId}']?.get
    const parameters = get?.parameters ?? []
    expect(parameters.map((p) => `${p.in} ${p.name} ${p.required === true}`)).toEqual([
      'path orgId true',
      'path noteId true',
      'query pageNo false',
      'query pageSize false',
      'query limit false',
    ])
    const noteId = parameters[1]
    expect(noteId).toEqual({
      name: 'noteId',
      in: 'path',
      required: true,
      description: 'The note id',
      example: 'n1',
      schema: { type: 'string' },
    })
    expect(parameters[3]?.schema).toEqual({ default: 7, type: 'integer', minimum: 1, maximum: 100 })
    expect(Object.keys(get?.responses ?? {})).toEqual(['200', '401', '403', '404'])
  })

  it('names the role a call on an organisation needs, and whether API tokens may make it', () => {
    const get = paths['/org/{orgId}/notes/{noteId}']?.get
    expect(get?.['x-required-role']).toBe('member')
    expect(get?.['x-api-tokens']).toBe(true)
    expect(get?.description).toContain('Needs the member role or above')
    expect(paths['/notes']?.post?.['x-required-role']).toBeUndefined()
  })

  it('documents a query number the server reads from text as the integer it stands for', () => {
    const limit = paths['/org/{orgId}/notes/{noteId}']?.get?.parameters?.[4]
    expect(limit?.schema).toEqual({ type: 'integer', minimum: 1, maximum: 5 })
  })
})
