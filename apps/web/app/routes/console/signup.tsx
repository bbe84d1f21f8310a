import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/signup.ts'
import { AuthForm } from './auth-form.tsx'

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, {
    title: 'Sign up',
    description: 'Create a free Tessera account.',
    noIndex: true,
  })

export default function Signup() {
  return <AuthForm mode="signup" />
}

export const ErrorBoundary = RouteErrorBoundary
