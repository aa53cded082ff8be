/**
 * A date as text, YYYY-MM-DD, with a calendar beside it. The browser's own date box reads
 * typed keys in its locale's order (mm/dd/yyyy here): "2024-03-01" typed into it became
 * 0301-02-04 and was saved. The app, its messages, copy, paste and CSV all write YYYY-MM-DD, so
 * that is what is typed; the calendar (the browser's picker, on a date box kept out of sight)
 * is for the mouse. The focus stays in the text while the calendar is open, so an editor that
 * saves on blur does not save before the date is picked.
 */
import { forwardRef, useRef } from "react";
import { Icon } from "./icons";
import { isValidDate } from "../../shared/values";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type TextProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange">;

export interface DateInputProps extends TextProps {
  value: string;
  onValue(text: string): void;
  /** The Field the date is for, in the calendar button's name (two "Pick a date" buttons on one panel were alike). */
  forName?: string;
}

export const DateInput = forwardRef<HTMLInputElement, DateInputProps>(function DateInput({ value, onValue, className, disabled, forName, ...rest }, ref) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <span className="date-input">
      <input {...rest} ref={ref} type="text" className={className} disabled={disabled} inputMode="numeric" placeholder={rest.placeholder ?? "YYYY-MM-DD"} value={value} onChange={(e) => onValue(e.target.value)} />
      <button
        type="button"
        className="date-input-pick"
        aria-label={`Pick a date from a calendar${forName ? ` for ${forName}` : ""}`}
        title="Pick a date"
        tabIndex={-1}
        disabled={disabled}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => picker.current?.showPicker?.()}
      >
        <Icon name="calendar" size={14} />
      </button>
      <input ref={picker} type="date" className="date-input-native" tabIndex={-1} aria-hidden="true" value={ISO_DATE.test(value) && isValidDate(value) ? value : ""} onChange={(e) => e.target.value && onValue(e.target.value)} />
    </span>
  );
});
