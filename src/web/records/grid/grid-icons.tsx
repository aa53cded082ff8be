/** The grid's icons are part of the app's one icon set (ui/icons.tsx); kept here for its importers. */
export { ExpandIcon, ViewIcon } from "../../ui/icons";
