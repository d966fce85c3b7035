import { type HtmlElement, type HtmlNode, isElement, walk } from '@storefront/html';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * Every HTML `<table>` below `root` in document order (by start tag, so an outer table
 * comes before the tables nested in it). Tables inside `<template>` are inert and left out,
 * as are scripts and styles (their content is text).
 */
export function findTables(root: HtmlNode): HtmlElement[] {
  const tables: HtmlElement[] = [];
  walk(root, {
    enter(node) {
      if (!isElement(node)) return;
      if (node.tagName === 'template') return 'skip';
      if (node.tagName === 'table' && node.namespaceURI === HTML_NAMESPACE) tables.push(node);
    },
  });
  return tables;
}
