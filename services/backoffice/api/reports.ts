/** The back office's figures: the dashboard and the GGR report (JSON and CSV). Reads only. */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { needs, Requires } from "../access.ts"
import { ReportRangeRefused } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"
import { Dashboard, GgrCsv, GgrQuery, GgrReport } from "../reports.ts"

export class ReportsApi extends HttpApiGroup.make("reports")
  .add(
    HttpApiEndpoint.get("dashboard", "/dashboard", { success: Dashboard }).annotate(
      Requires,
      needs("reports.read"),
    ),
    HttpApiEndpoint.get("ggr", "/reports/ggr", {
      query: GgrQuery,
      success: GgrReport,
      error: ReportRangeRefused,
    }).annotate(Requires, needs("reports.read")),
    HttpApiEndpoint.get("ggrCsv", "/reports/ggr.csv", {
      query: GgrQuery,
      success: GgrCsv,
      error: ReportRangeRefused,
    }).annotate(Requires, needs("reports.read")),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
