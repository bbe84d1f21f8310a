import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/signup.ts'
import { AuthForm } from './auth-form.tsx'
import { redirectSignedIn } from './console.server.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  return redirectSignedIn(request, context)
}

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
