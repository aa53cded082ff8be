/**
 * When an audit entry happened, in the app's one date-and-time format (the grid's), to the
 * second: thirteen changes at "09:31 AM" could not be told apart, nor which version a restore
 * toast meant (review 29b #12).
 */
import { formatDateTime } from "../../ui/dates";

export const formatWhen = (iso: string) => formatDateTime(iso, { seconds: true });
