// The catalog's presses, in the order `kvlens-cli presses` lists them: one line per
// press, naming the function of its file that describes it (PressEntry xyzEntry(), with
// named fields). Adding a press is its file, its line here and its line in
// CMakeLists.txt. Read by pressentry.h (declarations) and presscatalog.cpp (the list);
// no include guard, on purpose: each reader defines KVL_PRESS first.
// Scorers (one file each).
KVL_PRESS(randomEntry)
KVL_PRESS(streamingLlmEntry)
KVL_PRESS(knormEntry)
KVL_PRESS(snapKvEntry)
KVL_PRESS(tovaEntry)
KVL_PRESS(observedAttentionEntry)
KVL_PRESS(expectedAttentionEntry)
KVL_PRESS(keyDiffEntry)
KVL_PRESS(lagKvEntry)
KVL_PRESS(curEntry)
KVL_PRESS(qfilterEntry)
KVL_PRESS(finchEntry)
KVL_PRESS(nonCausalAttentionEntry)
KVL_PRESS(leverageEntry)
KVL_PRESS(compactorEntry)
KVL_PRESS(capEntry)
KVL_PRESS(kvzapEntry)
KVL_PRESS(kvzipEntry) // kvzippress.cpp: scorer, and its own global-threshold press
// Scorer wrappers.
KVL_PRESS(criticalKvEntry)
KVL_PRESS(whitelistEntry)
// Selectors.
KVL_PRESS(uniformEntry)
KVL_PRESS(pyramidKvEntry)
KVL_PRESS(adaKvEntry)
KVL_PRESS(chunkKvEntry)
KVL_PRESS(blockEntry)
KVL_PRESS(perLayerEntry)
KVL_PRESS(fairEvictionEntry)
KVL_PRESS(lukvEntry)
KVL_PRESS(simLayerKvEntry)
KVL_PRESS(duoAttentionEntry)
KVL_PRESS(kvComposeEntry) // kvcomposepress.cpp
// Press wrappers.
KVL_PRESS(composedEntry)
KVL_PRESS(keyRerotationEntry)
KVL_PRESS(mergingEntry)
KVL_PRESS(dmsEntry)
// Decode-time presses (decodingpress.cpp).
KVL_PRESS(decodingEntry)
KVL_PRESS(compressionRatioDecodingEntry)
KVL_PRESS(prefillDecodingEntry)
KVL_PRESS(camEntry) // campress.cpp
// Transforms.
KVL_PRESS(quantizedEntry)
KVL_PRESS(hqqEntry)
KVL_PRESS(thinkEntry)
// Offloading (offloadpress.cpp).
KVL_PRESS(shadowKvEntry)
KVL_PRESS(questEntry)
KVL_PRESS(yakvEntry)
