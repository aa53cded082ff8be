/** When an audit entry happened, in the app's one date-and-time format (the grid's). */
import { formatValue } from "../../records/values/values.utils";

export const formatWhen = (iso: string) => formatValue("datetime", iso);
