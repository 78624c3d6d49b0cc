// The session view's main turn in high contrast (screenshots; same assertions as dark).
import { THEMES, sessionViewSpec } from './session-view.e2e.mjs';

export default sessionViewSpec(THEMES.hc, 2);
