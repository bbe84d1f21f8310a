// The signed-in user the integrations' tests identify, chat with and so on.
import type { SessionUser } from '../session.ts'

export const ADA = {
  _id: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  createdAt: '2025-01-01T00:00:00.000Z',
} satisfies SessionUser
