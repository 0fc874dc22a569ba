/** Symbol mapping calls — spec §7 GET/POST/DELETE /api/symbol-maps, plus PUT /api/symbol-maps/:id (edit). */
import type { SymbolMap, UpdateSymbolMapRequest } from "#contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";
import type { MappingFormValues } from "../lib/mapping-form";

export const symbolMapKeys = { all: ["/api/symbol-maps"] as const };

/** GET /api/symbol-maps (creation order). */
export const symbolMapsQuery = queryOptions<SymbolMap[]>({ queryKey: symbolMapKeys.all });

/** The tenant's symbol mappings (empty while loading or on error). */
export function useSymbolMaps() {
  const query = useQuery(symbolMapsQuery);
  return { ...query, mappings: query.data ?? [] };
}

/** POST /api/symbol-maps {masterSymbol, slaveSymbol, slaveAccountId, lotMultiplier (number), enabled}. */
export function createSymbolMap(values: MappingFormValues): Promise<SymbolMap> {
  return apiRequest<SymbolMap>("POST", "/api/symbol-maps", values);
}

/** PUT /api/symbol-maps/:id with any of masterSymbol, slaveSymbol, slaveAccountId, lotMultiplier, enabled. */
export function updateSymbolMap({ id, changes }: { id: string; changes: UpdateSymbolMapRequest }): Promise<SymbolMap> {
  return apiRequest<SymbolMap>("PUT", `/api/symbol-maps/${encodeURIComponent(id)}`, changes);
}

/** DELETE /api/symbol-maps/:id; the response is not read. */
export async function deleteSymbolMap(id: string): Promise<void> {
  await apiRequest("DELETE", `/api/symbol-maps/${encodeURIComponent(id)}`);
}
