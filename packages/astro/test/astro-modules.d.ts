// For `tsc` only: Astro's language tools give `.astro` modules their real types in editors and `astro check`.
declare module '*.astro' {
  const Component: (props: Record<string, unknown>) => unknown
  export default Component
}
