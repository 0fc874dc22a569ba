/**
 * The organisation's Settings as the alert dialog reads them (issue 16): GET /api/settings, the
 * channels and toggles a new alert configuration starts from. Same query key as the Settings
 * screen, so a save there is seen here.
 */
import type { OrgSettings } from "#contract";
import { queryOptions, useQuery } from "@tanstack/react-query";

export const alertDefaultsQuery = queryOptions<OrgSettings>({ queryKey: ["/api/settings"] });

/** The settings (undefined while loading or on error: the dialog then starts empty). */
export function useAlertDefaults() {
  return useQuery(alertDefaultsQuery);
}
