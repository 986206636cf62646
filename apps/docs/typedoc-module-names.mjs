// A TypeDoc plugin: names each module of the reference by the import path a user writes
// (`@verified-reviews/core/cache`) instead of TypeDoc's default, its path from the common folder of
// the entry points (`core/src/cache`).
import { Converter, ReflectionKind } from 'typedoc'
import { publicEntryPoints } from './entry-points.mjs'

/** @param {import('typedoc').Application} app */
export function load(app) {
  const names = new Map(
    publicEntryPoints().map(({ folder, source, importPath }) => [
      `${folder}/${source.replace(/\.tsx?$/, '')}`.replace(/\/index$/, ''),
      importPath,
    ]),
  )
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const name = names.get(reflection.name)
      if (name) reflection.name = name
      else app.logger.warn(`typedoc-module-names: no import path for module ${reflection.name}`)
    }
    context.project.children?.sort((a, b) => a.name.localeCompare(b.name))
  })
}
