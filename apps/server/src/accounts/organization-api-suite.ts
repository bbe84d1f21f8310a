// Test support for the organisation suites (organization-*.test.ts): the paths, hostile text
// and the ids the tests call with.
export const ORG = '/service/panel/organization/v1.0'
export const USERS = '/service/panel/users/v1.0'
export const ABSENT = '00000000-0000-4000-8000-000000000000'
export const HOSTILE = [
  "' OR '1'='1",
  "x'; drop table organisations; --",
  '<script>x</script>',
  '%',
  '$1',
]
