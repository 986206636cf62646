// Types of site.mjs, for the TypeScript that reads it (scripts/release-metadata.ts and the tests).
export declare const repository: { readonly owner: string; readonly name: string }
export declare const repositoryUrl: string
export declare const branch: string
export declare const site: string
export declare const base: string
export declare const deployed: boolean
export declare const docsSources: string
