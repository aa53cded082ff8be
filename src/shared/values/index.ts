/** The value model shared by the service and the app (issue 23 item 1). */
export { isValidDate, isValidDateTime, normalizeDatetime } from "./dates";
export { MAX_EXACT, isExactNumber, numberValueProblem, parseNumberText, roundedNumberIn } from "./numbers";
export { MAX_JSON_DEPTH, type ValueField, type ValueProblem, fieldValueProblem, jsonDepth, textProblem } from "./field-values";
export { type Box, MAX_SIDE, objectUrl, pixelBox } from "./object-url";
