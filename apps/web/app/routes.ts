import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

// SPEC §2.1: every route is an exact match unless stated; any other path redirects to /.
export default [
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  layout('routes/site-layout.tsx', [
    index('routes/home.tsx'),
    route('contactus', 'routes/contactus.tsx'),
    route('products', 'routes/products.tsx'),
    route('about-us', 'routes/about-us.tsx'),
    route('features', 'routes/features.tsx'),
    // Sub-routes of a use case render the same page (SPEC: sub-routes not shown).
    route('usecase/:caseId/*', 'routes/usecase.tsx'),
    route('api', 'routes/api.tsx'),
    route('api/plugin', 'routes/api-plugin.tsx'),
    route('faqs', 'routes/faqs.tsx'),
    route('ai-tools', 'routes/ai-tools.tsx'),
    route('ai-tools/:slug', 'routes/ai-tool.tsx'),
    // The same page under its second address (SPEC §2.1: both are dynamic app pages).
    route('apps/:slug', 'routes/ai-tool.tsx', { id: 'routes/app' }),
    route('tools', 'routes/tools.tsx'),
    route('privacy-policy', 'routes/privacy-policy.tsx'),
    route('terms-of-use', 'routes/terms-of-use.tsx'),
    route('pricing', 'routes/pricing.tsx'),
    route('page-not-found', 'routes/page-not-found.tsx'),
    route('playground', 'routes/playground.tsx'),
  ]),
  ...prefix('console', [
    layout('routes/console/layout.tsx', [
      index('routes/console/home.tsx'),
      route('auth/login', 'routes/console/login.tsx'),
      route('auth/signup', 'routes/console/signup.tsx'),
      route('choose-org', 'routes/console/choose-org.tsx'),
      route('*', 'routes/console/not-found.ts'),
    ]),
  ]),
  route('*', 'routes/not-found.ts'),
] satisfies RouteConfig
