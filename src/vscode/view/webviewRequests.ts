// The host's answers to the view's requests that need VS Code (file search for @-mentions, the
// editor selection). Turn loading is answered by SessionViewProvider itself: it keeps which
// turns the view holds as outlines. A handler that throws becomes an error reply the view shows.
import * as vscode from 'vscode';
import type { RequestMethod, RequestParams, RequestResult } from '../../shared/protocol';
import { searchFiles } from './fileSearch';
import { currentSelection } from '../prompts/promptContent';

export type RequestHandlers<M extends RequestMethod = RequestMethod> = {
  [K in M]: (params: RequestParams<K>) => Promise<RequestResult<K>> | RequestResult<K>;
};

export const vscodeRequests: RequestHandlers<'searchFiles' | 'attachSelection'> = {
  searchFiles: ({ query }) => searchFiles(query),
  attachSelection: () => {
    const sel = currentSelection();
    if (!sel) {
      void vscode.window.showInformationMessage('Tandem: select some text in an editor to attach it.');
      return {};
    }
    return { attachment: sel.attachment, preview: sel.preview };
  },
};
