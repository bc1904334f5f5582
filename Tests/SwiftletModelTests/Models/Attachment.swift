//
//  File.swift
//  
//
//  Created by Serge Kazakov on 03/03/2024.
//

import Relata
import Foundation

extension Schema.V1 {
    @EntityModel
    struct Attachment: Codable, Sendable {
        @HashIndex<Self>(\.kind) var kindIndex
        
        let id: String
        var kind: Kind
    
        @Relationship(.required, inverse: \.attachment)
        var message: Message?
        
        enum Kind: Codable, Hashable {
            case image(url: URL)
            case video(url: URL)
            case file(url: URL)
        }
    }
}


