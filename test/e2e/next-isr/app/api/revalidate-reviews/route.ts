import { createRevalidateRoute } from '@verified-reviews/next'

export const { GET, POST } = createRevalidateRoute({ brandStore: false })
