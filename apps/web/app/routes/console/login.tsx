import { RouteErrorBoundary } from '../../components/route-error.tsx'
import { metaFor } from '../../lib/seo.ts'
import type { Route } from './+types/login.ts'
import { AuthForm } from './auth-form.tsx'
import { redirectSignedIn } from './console.server.ts'

export function loader({ request, context }: Route.LoaderArgs) {
  return redirectSignedIn(request, context)
}

export const meta: Route.MetaFunction = (args) =>
  metaFor(args, { title: 'Log in', description: 'Log in to the Tessera console.', noIndex: true })

export default function Login() {
  return <AuthForm mode="login" />
}

export const ErrorBoundary = RouteErrorBoundary
