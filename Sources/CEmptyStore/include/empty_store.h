#ifndef INBOX_EMPTY_STORE_H
#define INBOX_EMPTY_STORE_H
// The bytes of the database the store's migrations make from nothing (EmptyStore.swift says why),
// generated into empty_store.c by script/gen-empty-store: data, linked in, read in place.
#include <stddef.h>

const unsigned char *inbox_empty_store(size_t *size);

#endif
